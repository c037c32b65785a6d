import CarnetStore
import GRDB

extension HistoryFetch {
    /// Drops events about records that are gone now (their delete event, or the deleting client, covers them),
    /// attaches the current contacts and groups to add and update events, and turns each membership entry into
    /// the membership as it is now, in one query per kind.
    ///
    /// Membership events carry no record, so a replayed add could undo a client's own later remove: stating the
    /// current membership instead makes the event safe to apply whatever the client did meanwhile.
    func attachRecords(_ db: Database, to events: inout [ChangeHistoryEvent]) throws {
        // A record named twice (its own event and a membership's) is read once: the loader keeps the first row.
        var contactIDs: [String] = []
        var groupIDs: [String] = []
        contactIDs.reserveCapacity(events.count)
        // By index: `for event in events` copies each event, a retain per reference it holds.
        for index in events.indices {
            let kind = events[index].kind
            // A snapshot's contacts come with their events already.
            if kind != .deleteContact, case .none = events[index].contact, let id = events[index].contactIdentifier {
                contactIDs.append(id)
            }
            if kind != .deleteGroup, let id = events[index].groupIdentifier { groupIDs.append(id) }
        }
        var loaded = try ContactLoader(keys: request.contactKeys).loadUnordered(db, column: "id", values: contactIDs)
        // Each contact goes to one event at most (one event per record): moved out of the array, never copied, as
        // a copy costs a retain per reference it holds.
        var contacts = [Contact?](repeating: nil, count: loaded.contacts.count)
        // Popped from the end into their places: a pop moves, while reversing swaps by copying.
        var slot = contacts.count
        while let contact = loaded.contacts.popLast() {
            slot -= 1
            contacts[slot] = contact
        }
        let contactIndex = loaded.indexByValue
        var groupsByID: [String: Group] = [:]
        for chunk in groupIDs.chunked(500) {
            let rows = try Row.fetchAll(
                db, sql: "\(SQLiteStore.groupSelect) WHERE g.id IN (\(databaseQuestionMarks(count: chunk.count)))",
                arguments: StatementArguments(chunk))
            for group in rows.map(SQLiteStore.decodeGroup) { groupsByID[group.identifier] = group }
        }
        let members = try currentMemberships(db, of: events)
        let deleted = try deletedMembers(db, of: events, loaded: contactIndex)
        var groupsStated = HistoryGroupState.groupsWithEvents(events)
        let authors = MembershipAuthors(events)
        // In place: an event holds five strings and its record, and a copy of each costs as many retains.
        var gone = RangeSet<Int>()
        for index in events.indices
        where !attach(
            &events[index], contacts: &contacts, contactIndex: contactIndex, groups: groupsByID, members: members,
            deletedMembers: deleted, groupsStated: &groupsStated, authors: authors)
        {
            gone.insert(index, within: events)
        }
        events.removeSubranges(gone)
    }

    /// Completes one event; `false` when it is about a record that is gone now.
    private func attach(
        _ event: inout ChangeHistoryEvent, contacts: inout [Contact?], contactIndex: [String: Int],
        groups: [String: Group], members: Set<MemberPair>, deletedMembers: Set<String>,
        groupsStated: inout Set<String>, authors: MembershipAuthors
    ) -> Bool {
        switch event.kind {
        case .addContact, .updateContact:
            if event.contact != nil { return true }
            guard let index = contactIndex[event.contactIdentifier ?? ""], let contact = contacts[index].take()
            else { return false }
            event.contact = contact
        case .addGroup, .updateGroup:
            guard let group = groups[event.groupIdentifier ?? ""] else { return false }
            event.group = group
        case .addMemberToGroup, .removeMemberFromGroup:
            // A deleted contact or group takes its memberships with it (its delete event says so); the group's new
            // revision and member count come as its update (``HistoryGroupState``).
            guard let contact = event.contactIdentifier, let group = event.groupIdentifier, let record = groups[group]
            else { return false }
            guard contactIndex[contact] != nil || request.keepsUnknownMemberships else {
                return HistoryGroupState.stateGroup(
                    &event, record, memberDeleted: deletedMembers.contains(contact), stated: &groupsStated,
                    authors: authors)
            }
            let isMember = members.contains(MemberPair(group: group, contact: contact))
            let stated: ChangeEventKind = isMember ? .addMemberToGroup : .removeMemberFromGroup
            event.author = authors.author(of: event, stated: stated)
            event.kind = stated
            // The group as it is now: a membership changes its revision and member count, which a replica that
            // kept the group from its own event would otherwise hold stale for good.
            event.group = record
        case .dropEverything, .deleteContact, .deleteGroup:
            break
        }
        return true
    }

    struct MemberPair: Hashable {
        var group: String
        var contact: String
    }

    /// Which of the events' memberships exist now.
    private func currentMemberships(_ db: Database, of events: [ChangeHistoryEvent]) throws -> Set<MemberPair> {
        var pairs: [MemberPair] = []
        for index in events.indices
        where events[index].kind == .addMemberToGroup || events[index].kind == .removeMemberFromGroup {
            guard let group = events[index].groupIdentifier, let contact = events[index].contactIdentifier else {
                continue
            }
            pairs.append(MemberPair(group: group, contact: contact))
        }
        var found = Set<MemberPair>()
        for chunk in pairs.chunked(400) {
            let placeholders = Array(repeating: "(?, ?)", count: chunk.count).joined(separator: ", ")
            let rows = try Row.fetchAll(
                db,
                sql: """
                    WITH wanted(groupId, contactId) AS (VALUES \(placeholders))
                    SELECT w.groupId, w.contactId FROM wanted w
                    JOIN "group" g ON g.id = w.groupId JOIN contact c ON c.id = w.contactId
                    JOIN groupMember m ON m.groupRowid = g.rowid AND m.contactRowid = c.rowid
                    """, arguments: StatementArguments(chunk.flatMap { [$0.group, $0.contact] }))
            for row in rows { found.insert(MemberPair(group: row[0], contact: row[1])) }
        }
        return found
    }

    /// The contacts of the events' memberships that are deleted now (their identifiers retired as contacts'), of
    /// those not loaded.
    private func deletedMembers(_ db: Database, of events: [ChangeHistoryEvent], loaded: [String: Int]) throws
        -> Set<String>
    {
        guard !request.keepsUnknownMemberships else { return [] }
        let unknown = HistoryGroupState.unknownMembers(events) { loaded[$0] != nil }
        var deleted: Set<String> = []
        for chunk in unknown.chunked(500) {
            deleted.formUnion(
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT id FROM retiredIdentifier
                        WHERE kind = \(RetiredKind.contact.rawValue) AND id IN (\(databaseQuestionMarks(count: chunk.count)))
                        """, arguments: StatementArguments(chunk)))
        }
        return deleted
    }
}
