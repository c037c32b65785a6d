/// Folds raw history events into one event per record, in order of each record's first event.
///
/// The rules keep every replica convergent, whatever it learned outside the feed (its own save results, a
/// full-sync page that read a record added after the snapshot began):
/// - add then update is one add; updates merge their changed keys;
/// - add (or update) then delete is a delete, never nothing: a client may have seen the record already, and a
///   delete of a record it never saw is harmless;
/// - a membership's events fold into one entry whose kind is decided later from the membership as it is when
///   the page is read (``HistoryFetch`` does that), so a replayed add cannot undo a later remove;
/// - an entry's author is that of the save that gave it its kind: an add's, however updated since; the last
///   update's; a delete's (a membership's is settled with its kind, ``MembershipAuthors``).
package struct HistoryCoalescer {
    package enum Key: Hashable {
        case contact(String)
        case group(String)
        case member(group: String, contact: String)
    }

    package struct Entry {
        var key: Key
        var kind: ChangeEventKind
        var keys: Set<ContactKey> = []
        var author: String?
        var container: String?
    }

    package struct Raw {
        var kind: ChangeEventKind
        var recordId: String
        var otherId: String?
        var changedKeys: [ContactKey]
        var author: String?

        package init(
            kind: ChangeEventKind, recordId: String, otherId: String?, changedKeys: [ContactKey], author: String?
        ) {
            self.kind = kind
            self.recordId = recordId
            self.otherId = otherId
            self.changedKeys = changedKeys
            self.author = author
        }

        var key: Key {
            switch kind {
            case .addContact, .updateContact, .deleteContact, .dropEverything: .contact(recordId)
            case .addGroup, .updateGroup, .deleteGroup: .group(recordId)
            case .addMemberToGroup, .removeMemberFromGroup: .member(group: otherId ?? "", contact: recordId)
            }
        }
    }

    /// The entries in order of first event, and where each record's entry is: one hash lookup per raw event.
    private(set) var entries: [Entry] = []
    private var index: [Key: Int] = [:]
    /// The most entries the output may hold.
    package let limit: Int

    package init(limit: Int = .max) {
        self.limit = limit
        // A page fills to its limit more often than not: grow the table once, not by doubling.
        let expected = min(limit, 1024)
        entries.reserveCapacity(expected)
        index.reserveCapacity(expected)
    }

    /// How many events the output holds.
    package var count: Int { entries.count }

    /// Folds an event in; `false`, changing nothing, when it would open an entry past the limit.
    @discardableResult
    package mutating func add(_ raw: Raw) -> Bool {
        let key = raw.key
        // One hash per event: reading through the default subscript's modify accessor inserts the next position
        // when the record is new.
        let fresh = entries.count
        let position = Self.read(&index[key, default: fresh])
        if position != fresh {
            // The event is the save's that gave it its kind: an add updated since stays the adder's.
            if !Self.keepsEarlier(entries[position].kind, raw.kind) { entries[position].author = raw.author }
            entries[position].kind = Self.fold(entries[position].kind, raw.kind)
            if entries[position].kind == .updateContact { entries[position].keys.formUnion(raw.changedKeys) }
            return true
        }
        guard entries.count < limit else {
            index[key] = nil
            return false
        }
        entries.append(
            Entry(key: key, kind: raw.kind, keys: Set(raw.changedKeys), author: raw.author, container: raw.otherId))
        return true
    }

    private static func read(_ slot: inout Int) -> Int { slot }

    /// The kind of one record's entry after a later event: pure, so the rules are tested on their own.
    package static func fold(_ earlier: ChangeEventKind, _ later: ChangeEventKind) -> ChangeEventKind {
        keepsEarlier(earlier, later) ? earlier : later
    }

    /// Whether the earlier kind stands after the later event (and with it the earlier event's author).
    package static func keepsEarlier(_ earlier: ChangeEventKind, _ later: ChangeEventKind) -> Bool {
        switch (earlier, later) {
        case (.addContact, .updateContact), (.addGroup, .updateGroup): true
        case (.deleteContact, _), (.deleteGroup, _): true
        default: false
        }
    }

    /// The coalesced events, in order of each record's first event.
    package var events: [ChangeHistoryEvent] {
        entries.map { entry in
            switch entry.key {
            case .contact(let id):
                ChangeHistoryEvent(
                    kind: entry.kind, contact: id, container: entry.kind == .addContact ? entry.container : nil,
                    changedKeys: entry.kind == .updateContact ? entry.keys.sorted() : [], author: entry.author)
            case .group(let id):
                ChangeHistoryEvent(
                    kind: entry.kind, group: id, container: entry.kind == .addGroup ? entry.container : nil,
                    author: entry.author)
            case .member(let group, let contact):
                ChangeHistoryEvent(kind: entry.kind, contact: contact, group: group, author: entry.author)
            }
        }
    }
}
