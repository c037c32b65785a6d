import CarnetGraphQL

/// Linking in the model: writers link, unlink and choose the preferred contact; clients that apply their own
/// saves follow the schema's contract for a save that touched links (it reads the contacts it touched again).
extension ScheduleRunner {
    /// Contacts that were or are linked around a save: every identifier a client must read again.
    struct LinkedAround {
        var ids: Set<String> = []
        /// Whether any of them is linked.
        var linked = false
    }

    /// A client that excludes its own author and applies its own saves: a pull client or a subscriber.
    enum OwnApplier {
        case puller(Int)
        case subscriber(SubscriberClient)
    }

    /// The clients of `author` on `book` that exclude their own author and apply their own saves.
    func ownAppliers(author: String, book: Int) -> [OwnApplier] {
        pullers.indices.filter {
            pullers[$0].excludeOwn && pullers[$0].author == author && pullers[$0].book == book
        }.map(OwnApplier.puller)
            + subscribers.filter { $0.excludeOwn && $0.author == author && $0.book == book }.map(OwnApplier.subscriber)
    }

    /// Whether the client syncs unified contacts, and whether it follows groups.
    func options(_ client: OwnApplier) -> (unify: Bool, groupChanges: Bool) {
        switch client {
        case .puller(let index): (pullers[index].unify, pullers[index].groupChanges)
        case .subscriber(let subscriber): (subscriber.unify, subscriber.groupChanges)
        }
    }

    /// Changes what the client holds: a subscriber's state under its lock, as its reader applies payloads.
    mutating func update(_ client: OwnApplier, _ change: (inout ReplicaState) -> Void) {
        switch client {
        case .puller(let index): change(&pullers[index].state)
        case .subscriber(let subscriber): subscriber.progress.withLock { change(&$0.state) }
        }
    }

    /// The contact identifiers a save's operations name.
    func namedContacts(_ operations: [JSONValue]) -> [String] {
        let known = Set(contactIds)
        var found: [String] = []
        func collect(_ value: JSONValue) {
            if let string = value.stringValue, known.contains(string) { found.append(string) }
            for element in value.arrayValue ?? [] { collect(element) }
            for (_, element) in value.objectValue ?? [:] { collect(element) }
        }
        for operation in operations { collect(operation) }
        return found
    }

    /// A link operation, mostly on recent contacts (older ones are more often deleted, which refuses the save);
    /// unlinking and preferring mostly name contacts a save showed linked.
    mutating func linkOperation() -> JSONValue {
        let recent = Array(contactIds.suffix(6))
        let linked = linkedIds.isEmpty || random.chance(15) ? recent : Array(linkedIds.suffix(6))
        func pick(_ ids: [String]) -> JSONValue { .string(random.pick(ids) ?? contactIds[0]) }
        switch random.int(1...100) {
        case 1...55:
            // Two or three contacts; sometimes one twice or an old one, maybe deleted or of another book: refused,
            // writing nothing.
            var ids: [JSONValue] = []
            var candidates = recent
            for _ in 0..<random.int(2...3) {
                let id = random.chance(10) ? pick(contactIds) : pick(candidates)
                if !ids.contains(id) || random.chance(10) { ids.append(id) }
                candidates.removeAll { .string($0) == id }
                if candidates.isEmpty { candidates = recent }
            }
            return ["linkContacts": .array(ids)]
        case 56...80: return ["unlinkContact": pick(linked)]
        case 81...95: return ["setPreferredForName": pick(linked)]
        default: return ["setPreferredForImage": pick(linked)]
        }
    }

    /// What the client itself holds around the identifiers before its save: the records it holds under them or
    /// with them among their members, and those members. A client knows no more than that: reading the server
    /// just before its save races other writers (an outside fuzzer's replica kept a unified contact whose end
    /// only such a read had shown the model).
    func knowledge(_ client: OwnApplier, around ids: [String]) -> LinkedAround {
        let state =
            switch client {
            case .puller(let index): pullers[index].state
            case .subscriber(let subscriber): subscriber.progress.withLock { $0.state }
            }
        let named = Set(ids)
        var around = LinkedAround(ids: named)
        for (id, node) in state.contacts {
            let members = (node["linkedContacts"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
            guard named.contains(id) || !named.isDisjoint(with: members) else { continue }
            around.ids.insert(id)
            around.ids.formUnion(members)
            around.linked = around.linked || !members.isEmpty
        }
        return around
    }

    /// The unified contacts the identifiers are part of now and their members, read as a client would (a unified
    /// fetch with `linkedContacts`).
    func linked(around ids: [String], book: Int) async throws -> LinkedAround {
        guard !ids.isEmpty else { return LinkedAround() }
        var around = LinkedAround(ids: Set(ids))
        for node in try await reread(ids, unify: true, book: book) {
            let members = (node["linkedContacts"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
            if let id = node["id"]?.stringValue { around.ids.insert(id) }
            around.ids.formUnion(members)
            around.linked = around.linked || !members.isEmpty
        }
        return around
    }

    /// The contacts with these identifiers now, unified or individual.
    func reread(_ ids: [String], unify: Bool, book: Int) async throws -> [JSONValue] {
        var variables: [String: JSONValue] = ["ids": .array(ids.map(JSONValue.string)), "unify": .bool(unify)]
        if book != 0 { variables["book"] = world.bookVariable(book) }
        let result = try await world.run(book == 0 ? SyncDocuments.reread : SyncDocuments.bookReread, variables)
        let data = book == 0 ? result["data"] : result["data"]?["addressBook"]
        guard result["errors"] == nil, let nodes = data?["contacts"]?["nodes"]?.arrayValue else {
            throw ModelFailure("reread: \(result.json)")
        }
        return nodes
    }

    /// After its own save that touched links (before or after it), a client that applies its own saves reads the
    /// touched contacts again, as the schema says: those found replace what it holds, with their groups read again;
    /// those not found (ended unified contacts; for unified clients, the members) are dropped.
    /// - Parameter before: each owner's ``knowledge(_:around:)`` of the named contacts before the save.
    mutating func rereadAfterLinks(
        _ owners: [OwnApplier], operations: [JSONValue], saved: JSONValue, named: [String], before: [LinkedAround],
        book: Int
    ) async throws {
        guard !owners.isEmpty else { return }
        let results = (saved["contacts"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
        let after = try await linked(around: named + results, book: book)
        let linkOperations = ["linkContacts", "unlinkContact", "setPreferredForName", "setPreferredForImage"]
        let store = world.store(of: book)
        for (owner, known) in zip(owners, before) {
            let touchesLinks =
                known.linked || after.linked
                || operations.contains { operation in linkOperations.contains { operation[$0] != nil } }
            guard touchesLinks else { continue }
            // What it knew, and what the save's result and a read after it show.
            let touched = Array(known.ids.union(after.ids).union(knowledge(owner, around: Array(after.ids)).ids))
            let (unify, groupChanges) = options(owner)
            let nodes = try await reread(touched, unify: unify, book: book)
            var found: [String: JSONValue] = [:]
            for node in nodes { if let id = node["id"]?.stringValue { found[id] = node } }
            // The groups are read before the state changes: a subscriber's state is only held under its lock.
            var memberships: [String: [[String]]] = [:]
            for (id, node) in found where groupChanges {
                let linked = (node["linkedContacts"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
                let members = unify && !linked.isEmpty ? linked : [id]
                let groups = try await store.groups(ofContacts: members)
                memberships[id] = members.flatMap { groups[$0] ?? [] }.map { [$0.identifier, id] }
            }
            update(owner) { state in
                for id in touched where found[id] == nil { state.removeContact(id) }
                for (id, node) in found {
                    state.contacts[id] = node
                    guard let pairs = memberships[id] else { continue }
                    state.members = state.members.filter { $0[1] != id }
                    for pair in pairs { state.members.insert(pair) }
                }
            }
        }
    }
}
