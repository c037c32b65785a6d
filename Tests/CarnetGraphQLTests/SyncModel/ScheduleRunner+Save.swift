import CarnetGraphQL
import CarnetStore
import Foundation

extension ScheduleRunner {
    static let verbose = ProcessInfo.processInfo.environment["CARNET_SYNC_VERBOSE"] == "1"
    static let names = ["Anna", "Bob", "Chloé", "Đức", "Eve", "Fatima", "Gus", "Hana"]

    /// One save of one to three operations by a random author; clients of that author that apply their own
    /// saves do so from the result, as the contract allows.
    mutating func save() async throws {
        let author = random.pick(Self.authors)!
        let book = random.int(0...world.booksCount - 1)
        // Half the time, a save by a subscriber's author aims at what that subscriber's payload on its way names:
        // the race its exclusion must survive.
        targets = ([], [])
        for subscriber in subscribers
        where subscriber.excludeOwn && subscriber.author == author && subscriber.book == book && random.chance(50) {
            targets = subscriber.progress.withLock { ($0.pendingContacts, $0.pendingGroups) }
        }
        var operations: [JSONValue] = []
        for _ in 0..<random.int(1...3) { operations.append(operation()) }
        // The third book's owner, `other`, saves into it through the root fields; the owner by its id.
        let asOther = book == 2 && random.chance(50)
        try await perform(operations, author: author, book: book, asOther: asOther, interleave: true)
    }

    /// Runs one save and applies its result to its author's clients. Their subscribers hold payloads arriving
    /// meanwhile until then, as the contract's client does; with `interleave`, another author's save of a contact
    /// this one named sometimes commits before the result is applied, so its payload arrives first.
    private mutating func perform(
        _ operations: [JSONValue], author: String, book: Int, asOther: Bool, interleave: Bool
    ) async throws {
        let request: JSONValue = .object(["transactionAuthor": .string(author), "operations": .array(operations)])
        let owners = ownAppliers(author: author, book: book)
        let named = namedContacts(operations)
        let before = owners.map { knowledge($0, around: named) }
        let holding = owners.compactMap { owner -> SubscriberClient? in
            guard case .subscriber(let subscriber) = owner else { return nil }
            return subscriber
        }
        for subscriber in holding { subscriber.hold.hold() }
        defer { for subscriber in holding { subscriber.hold.release() } }
        let result = try await world.run(
            SyncDocuments.save, ["request": request, "book": asOther ? .null : world.bookVariable(book)],
            asOther: asOther)
        // Records of one book named in a save to another are refused as records that do not exist.
        // The operations in full when asked (`CARNET_SYNC_VERBOSE=1`), to replay a failing seed by hand.
        let summary =
            "book \(book): "
            + operations.map { Self.verbose ? $0.json : ($0.objectValue?.keys.first ?? "?") }.joined(separator: ",")
        guard result["errors"] == nil, let saved = result["data"]?["save"] else {
            // A refused save (a deleted record, a conflict, a duplicate membership) must write nothing.
            let code = result["errors"]?[0]?["extensions"]?["code"]?.stringValue ?? "?"
            log.append("save \(author) [\(summary)] refused \(code)")
            guard
                [
                    "RECORD_DOES_NOT_EXIST", "CONFLICT", "CONTAINMENT_SCOPE", "VALIDATION_FAILED", "LINK_INVALID",
                    "RECORD_IDENTIFIER_INVALID",
                ].contains(code)
            else {
                throw ModelFailure("unexpected save error: \(result.json)")
            }
            return
        }
        log.append("save \(author) [\(summary)]")
        if interleave, !holding.isEmpty, random.chance(50) {
            try await laterSave(named: named, book: book, author: author, holding: holding)
        }
        if operations.contains(where: { $0["linkContacts"] != nil || $0["unlinkContact"] != nil }) { linkSaves += 1 }
        for contact in saved["contacts"]?.arrayValue ?? [] {
            if let id = contact["id"]?.stringValue, !contactIds.contains(id) { contactIds.append(id) }
            let members = (contact["linkedContacts"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
            if members.isEmpty, let id = contact["id"]?.stringValue { linkedIds.removeAll { $0 == id } }
            for id in members where !linkedIds.contains(id) { linkedIds.append(id) }
        }
        for group in saved["groups"]?.arrayValue ?? [] {
            if let id = group["id"]?.stringValue, !groupIds.contains(id) { groupIds.append(id) }
        }
        for owner in owners {
            let groupChanges = options(owner).groupChanges
            update(owner) { $0.apply(ownSave: saved, operations: operations, groupChanges: groupChanges) }
        }
        try await rereadAfterLinks(
            owners, operations: operations, saved: saved, named: named, before: before, book: book)
        try await readMergedGroups(operations, book: book, author: author)
    }

    /// Another author's update of a contact the save named, committed before the save's result is applied.
    private mutating func laterSave(
        named: [String], book: Int, author: String, holding: [SubscriberClient]
    ) async throws {
        guard let contact = random.pick(named), let other = random.pick(Self.authors.filter({ $0 != author })) else {
            return
        }
        let taken = holding.map { subscriber in subscriber.progress.withLock { $0.taken } }
        log.append("before its result:")
        try await perform(
            [["updateContact": updateContact(contact)]], author: other, book: book, asOther: false, interleave: false)
        // Lets the readers take the payload (one waiting at its gate cannot: that order is the common one).
        for _ in 0..<20 {
            let waiting = zip(holding, taken).contains { subscriber, count in
                subscriber.progress.withLock { $0.taken } == count
            }
            guard waiting else { break }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// A client that applies its own merge reads the survivor's groups again, as the schema tells it to: the
    /// absorbed contacts' memberships it may not have pulled yet are the survivor's now. A unified client that
    /// holds the survivor inside a unified contact read that contact's groups again with its links, as the
    /// survivor is not a contact it holds (the model once gave it the member's own membership).
    private mutating func readMergedGroups(_ operations: [JSONValue], book: Int, author: String) async throws {
        let survivors = operations.compactMap { $0["mergeContacts"]?["into"]?.stringValue }
        guard !survivors.isEmpty else { return }
        let groups = try await world.store(of: book).groups(ofContacts: survivors)
        for owner in ownAppliers(author: author, book: book) where options(owner).groupChanges {
            let unify = options(owner).unify
            update(owner) { state in
                for survivor in survivors where !unify || state.contacts[survivor] != nil {
                    state.members = state.members.filter { $0[1] != survivor }
                    for group in groups[survivor] ?? [] { state.members.insert([group.identifier, survivor]) }
                }
            }
        }
    }

    private mutating func operation() -> JSONValue {
        let contact = (random.pick(targets.contacts) ?? random.pick(contactIds)).map(JSONValue.string)
        let group = (random.pick(targets.groups) ?? random.pick(groupIds)).map(JSONValue.string)
        if contact != nil, random.chance(linkPercent) { return linkOperation() }
        switch random.int(1...100) {
        case 1...26: return ["addContact": addContact()]
        case 27...48 where contact != nil: return ["updateContact": updateContact(contact!.stringValue!)]
        case 49...51 where contact != nil:
            // Sometimes the contact itself, or one of another book: refused, writing nothing.
            let absorbed = random.pick(contactIds).map(JSONValue.string) ?? contact!
            return ["mergeContacts": ["into": contact!, "from": .array([absorbed])]]
        case 52...58 where contact != nil: return ["deleteContact": contact!]
        case 59...66: return ["addGroup": ["name": .string("G\(random.int(1...99))")]]
        case 67...70 where group != nil:
            return ["updateGroup": ["id": group!, "name": .string("R\(random.int(1...99))")]]
        case 71...73 where group != nil: return ["deleteGroup": group!]
        case 74...80 where contact != nil && group != nil:
            return ["addMember": ["contactId": contact!, "groupId": group!]]
        case 81...84 where contact != nil && group != nil:
            return ["removeMember": ["contactId": contact!, "groupId": group!]]
        default: return ["addContact": addContact()]
        }
    }

    private mutating func addContact() -> JSONValue {
        var fields: [String: JSONValue] = ["givenName": .string(random.pick(Self.names)!)]
        if random.chance(30) { fields["note"] = .string("note \(random.int(1...999))") }
        fields["phoneNumbers"] = .array((0..<random.int(0...2)).map { _ in newPhone() })
        return .object(fields)
    }

    private mutating func newPhone() -> JSONValue {
        [
            "label": .string(random.pick(["mobile", "home", "work"])!),
            "value": .string("+1 555 \(random.int(1000...9999))"),
        ]
    }

    /// A partial update of one to three keys; phones keep, edit or drop the values the writer last read.
    private mutating func updateContact(_ id: String) -> JSONValue {
        var fields: [String: JSONValue] = ["id": .string(id)]
        let read = reads[id]
        if let read, random.chance(40) { fields["baseRevision"] = .string(read.revision) }
        if random.chance(50) { fields["givenName"] = .string(random.pick(Self.names)! + "\(random.int(1...9))") }
        if random.chance(30) { fields["note"] = random.chance(20) ? .null : .string("edited \(random.int(1...999))") }
        if random.chance(50) || fields.count == 1 {
            var phones: [JSONValue] = []
            for phone in read?.phones ?? [] where random.chance(70) {
                var value = phone.objectValue ?? [:]
                if random.chance(30) { value["value"] = .string("+44 20 \(random.int(1000...9999))") }
                phones.append(.object(value))
            }
            if random.chance(50) { phones.append(newPhone()) }
            fields["phoneNumbers"] = .array(phones)
        }
        return .object(fields)
    }
}
