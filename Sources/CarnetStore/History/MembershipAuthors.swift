/// The author of a membership event once its kind is stated from the membership as it is when the page is read.
///
/// The save of the membership's last add or remove on the page, when that save made it what it is now; else the
/// delete on the page of its contact or group, which ended it and gets no membership event of its own; else none
/// (a save past the page's changed it). Before, a membership a contact's delete ended was stated as removed in the
/// name of the save that had added it (an outside tester's find). The same rules on every backend.
package struct MembershipAuthors {
    private var contactDeletes: [String: String?] = [:]
    private var groupDeletes: [String: String?] = [:]

    /// Learns the page's deletes.
    package init(_ events: [ChangeHistoryEvent]) {
        for event in events {
            switch event.kind {
            case .deleteContact: if let id = event.contactIdentifier { contactDeletes[id] = event.author }
            case .deleteGroup: if let id = event.groupIdentifier { groupDeletes[id] = event.author }
            default: break
            }
        }
    }

    /// The author of `event` (a membership's coalesced event, its kind as its saves left it) stated as `stated`.
    package func author(of event: ChangeHistoryEvent, stated: ChangeEventKind) -> String? {
        if stated == event.kind { return event.author }
        guard stated == .removeMemberFromGroup else { return nil }
        if let contact = event.contactIdentifier, let author = contactDeletes[contact] { return author }
        if let group = event.groupIdentifier, let author = groupDeletes[group] { return author }
        return nil
    }
}
