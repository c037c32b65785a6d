import GRDB

extension HistoryFetch {
    /// Drops events about records that are gone now (their delete event, or the deleting client, covers them)
    /// and attaches the current contacts and groups to add and update events, in one query per kind.
    func attachRecords(_ db: Database, to events: inout [ChangeHistoryEvent]) throws {
        let contactIDs = Set(events.compactMap { $0.kind == .deleteContact ? nil : $0.contactIdentifier })
        let groupIDs = Set(events.compactMap { $0.kind == .deleteGroup ? nil : $0.groupIdentifier })
        let contacts = try CarnetStore.contacts(db, identifiers: Array(contactIDs), keys: request.contactKeys)
        let contactsByID = Dictionary(contacts.map { ($0.identifier, $0) }, uniquingKeysWith: { a, _ in a })
        var groupsByID: [String: Group] = [:]
        for chunk in Array(groupIDs).chunked(500) {
            let rows = try Row.fetchAll(
                db, sql: "\(CarnetStore.groupSelect) WHERE g.id IN (\(databaseQuestionMarks(count: chunk.count)))",
                arguments: StatementArguments(chunk))
            for group in rows.map(CarnetStore.decodeGroup) { groupsByID[group.identifier] = group }
        }
        events = events.compactMap { event in
            var event = event
            switch event.kind {
            case .addContact, .updateContact:
                guard let contact = contactsByID[event.contactIdentifier!] else { return nil }
                event.contact = contact
            case .addGroup, .updateGroup:
                guard let group = groupsByID[event.groupIdentifier!] else { return nil }
                event.group = group
            case .addMemberToGroup, .removeMemberFromGroup:
                guard contactsByID[event.contactIdentifier!] != nil, groupsByID[event.groupIdentifier!] != nil
                else { return nil }
            case .dropEverything, .deleteContact, .deleteGroup:
                break
            }
            return event
        }
    }
}
