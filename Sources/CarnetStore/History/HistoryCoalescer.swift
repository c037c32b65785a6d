/// Folds raw history events into one event per record, in order of first appearance:
/// add then update is one add, add then delete is nothing, updates merge their changed keys, and a membership
/// added then removed (or removed then added) is nothing.
struct HistoryCoalescer {
    enum Key: Hashable {
        case contact(String)
        case group(String)
        case member(group: String, contact: String)
    }

    struct Entry {
        var firstKind: ChangeEventKind
        var kind: ChangeEventKind
        var keys: Set<ContactKey> = []
        var author: String?
        var container: String?
        var isLive = true
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
    private(set) var liveCount = 0

    /// Whether folding the event in would add an event to the output.
    func opensEntry(_ raw: Raw) -> Bool { entries[raw.key]?.isLive != true }

    mutating func add(_ raw: Raw) {
        let key = raw.key
        guard var entry = entries[key] else {
            order.append(key)
            entries[key] = Entry(firstKind: raw.kind, kind: raw.kind, keys: Set(raw.changedKeys), author: raw.author,
                container: raw.otherId)
            liveCount += 1
            return
        }
        let wasLive = entry.isLive
        entry.author = raw.author
        switch (entry.kind, raw.kind) {
        case (.addContact, .updateContact), (.addGroup, .updateGroup):
            break
        case (.updateContact, .updateContact):
            entry.keys.formUnion(raw.changedKeys)
        case (.addContact, .deleteContact), (.addGroup, .deleteGroup):
            entry.kind = raw.kind
            entry.isLive = false
        case (.addMemberToGroup, _), (.removeMemberFromGroup, _):
            entry.kind = raw.kind
            entry.isLive = entry.kind == entry.firstKind
        default:
            entry.kind = raw.kind
        }
        if wasLive != entry.isLive { liveCount += entry.isLive ? 1 : -1 }
        entries[key] = entry
    }

    /// The coalesced events, in order of each record's first event.
    var events: [ChangeHistoryEvent] {
        order.compactMap { key in
            guard let entry = entries[key], entry.isLive else { return nil }
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
