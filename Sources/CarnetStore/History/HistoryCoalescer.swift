/// Folds raw history events into one event per record, in order of each record's first event.
///
/// The rules keep every replica convergent, whatever it learned outside the feed (its own save results, a
/// full-sync page that read a record added after the snapshot began):
/// - add then update is one add; updates merge their changed keys;
/// - add (or update) then delete is a delete, never nothing: a client may have seen the record already, and a
///   delete of a record it never saw is harmless;
/// - a membership's events fold into one entry whose kind is decided later from the membership as it is when
///   the page is read (``HistoryFetch`` does that), so a replayed add cannot undo a later remove.
struct HistoryCoalescer {
    enum Key: Hashable {
        case contact(String)
        case group(String)
        case member(group: String, contact: String)
    }

    struct Entry {
        var kind: ChangeEventKind
        var keys: Set<ContactKey> = []
        var author: String?
        var container: String?
    }

    struct Raw {
        var kind: ChangeEventKind
        var recordId: String
        var otherId: String?
        var changedKeys: [ContactKey]
        var author: String?

        var key: Key {
            switch kind {
            case .addContact, .updateContact, .deleteContact, .dropEverything: .contact(recordId)
            case .addGroup, .updateGroup, .deleteGroup: .group(recordId)
            case .addMemberToGroup, .removeMemberFromGroup: .member(group: otherId ?? "", contact: recordId)
            }
        }
    }

    private(set) var order: [Key] = []
    private(set) var entries: [Key: Entry] = [:]

    /// How many events the output holds.
    var count: Int { order.count }

    /// Whether folding the event in would add an event to the output.
    func opensEntry(_ raw: Raw) -> Bool { entries[raw.key] == nil }

    mutating func add(_ raw: Raw) {
        let key = raw.key
        guard var entry = entries[key] else {
            order.append(key)
            entries[key] = Entry(kind: raw.kind, keys: Set(raw.changedKeys), author: raw.author, container: raw.otherId)
            return
        }
        entry.author = raw.author
        entry.kind = Self.fold(entry.kind, raw.kind)
        if entry.kind == .updateContact { entry.keys.formUnion(raw.changedKeys) }
        entries[key] = entry
    }

    /// The kind of one record's entry after a later event: pure, so the rules are tested on their own.
    static func fold(_ earlier: ChangeEventKind, _ later: ChangeEventKind) -> ChangeEventKind {
        switch (earlier, later) {
        case (.addContact, .updateContact), (.addGroup, .updateGroup): earlier
        case (.deleteContact, _), (.deleteGroup, _): earlier
        default: later
        }
    }

    /// The coalesced events, in order of each record's first event.
    var events: [ChangeHistoryEvent] {
        order.compactMap { key in
            guard let entry = entries[key] else { return nil }
            switch key {
            case .contact(let id):
                return ChangeHistoryEvent(
                    kind: entry.kind, contact: id, container: entry.kind == .addContact ? entry.container : nil,
                    changedKeys: entry.kind == .updateContact ? entry.keys.sorted() : [], author: entry.author)
            case .group(let id):
                return ChangeHistoryEvent(
                    kind: entry.kind, group: id, container: entry.kind == .addGroup ? entry.container : nil,
                    author: entry.author)
            case .member(let group, let contact):
                return ChangeHistoryEvent(kind: entry.kind, contact: contact, group: group, author: entry.author)
            }
        }
    }
}
