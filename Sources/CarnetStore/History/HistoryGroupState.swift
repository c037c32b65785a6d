/// A group's state in a history page when a membership event of it is left out: a membership of a contact deleted
/// since is covered by the contact's delete, but the group's new revision and member count were not, and a replica
/// that keeps groups from their events held them stale for good (an outside tester's find: a member removed, then
/// deleted, before the client's pull). Such a membership becomes an update of its group, once a page, unless the
/// page has an event of the group already. The same rules on every backend.
package enum HistoryGroupState {
    /// The groups the page has events of.
    package static func groupsWithEvents(_ events: [ChangeHistoryEvent]) -> Set<String> {
        var groups: Set<String> = []
        for event in events {
            switch event.kind {
            case .addGroup, .updateGroup, .deleteGroup: if let group = event.groupIdentifier { groups.insert(group) }
            default: break
            }
        }
        return groups
    }

    /// The contacts of the page's memberships that `isLoaded` does not know, each once.
    package static func unknownMembers(_ events: [ChangeHistoryEvent], isLoaded: (String) -> Bool) -> [String] {
        var seen: Set<String> = []
        var unknown: [String] = []
        for event in events where event.kind == .addMemberToGroup || event.kind == .removeMemberFromGroup {
            guard let contact = event.contactIdentifier, !isLoaded(contact), seen.insert(contact).inserted else {
                continue
            }
            unknown.append(contact)
        }
        return unknown
    }

    /// Turns the membership event of a contact that is no contact now into an update of `group` when the contact
    /// was deleted and the page states the group nowhere else; `false` (left out) otherwise. A unified contact's
    /// membership in an individual page is left out, as before.
    /// The update is the author's of the membership's end (``MembershipAuthors``).
    package static func stateGroup(
        _ event: inout ChangeHistoryEvent, _ group: Group, memberDeleted: Bool, stated: inout Set<String>,
        authors: MembershipAuthors
    ) -> Bool {
        guard memberDeleted, stated.insert(group.identifier).inserted else { return false }
        let author = authors.author(of: event, stated: .removeMemberFromGroup)
        var update = ChangeHistoryEvent(kind: .updateGroup, group: group.identifier, author: author)
        update.group = group
        event = update
        return true
    }
}
