import CarnetStore
import GRDB

extension HistoryFetch {
    /// Enumerates current records as add events: contacts, then (with group changes) groups and memberships.
    func snapshotPage(
        _ db: Database, at position: Int64, from start: HistoryToken.Snapshot, budget: Int, current: Int64
    ) throws -> (events: [ChangeHistoryEvent], token: HistoryToken, hasMore: Bool) {
        var events: [ChangeHistoryEvent] = []
        var cursor = start
        let phases: [HistoryToken.Phase] = request.includeGroupChanges ? [.contacts, .groups, .members] : [.contacts]
        for phase in phases where phase.rawValue >= start.phase.rawValue {
            if phase != cursor.phase { cursor = .init(phase: phase, afterFirst: 0, afterSecond: 0) }
            let remaining = budget - events.count
            if phase == .contacts {
                guard try snapshotContacts(db, after: &cursor, budget: remaining, into: &events) else {
                    return (events, HistoryToken(storeID: storeID, position: position, snapshot: cursor), true)
                }
                continue
            }
            let rows = try SQLiteRows(
                db.cachedStatement(sql: Self.snapshotSQL(phase)),
                arguments: [cursor.afterFirst, cursor.afterFirst, cursor.afterSecond, remaining + 1])
            var read = 0
            while let row = try rows.next() {
                read += 1
                // One row past the budget says whether the phase goes on; it is not an event of this page.
                guard read <= remaining else { break }
                cursor.afterFirst = row.int64(0)
                cursor.afterSecond = row.int64(1)
                switch phase {
                case .contacts: break
                case .groups:
                    events.append(ChangeHistoryEvent(kind: .addGroup, group: row.string(2), container: row.string(3)))
                case .members:
                    events.append(
                        ChangeHistoryEvent(kind: .addMemberToGroup, contact: row.string(3), group: row.string(2)))
                }
            }
            if read > remaining {
                return (events, HistoryToken(storeID: storeID, position: position, snapshot: cursor), true)
            }
        }
        return (events, HistoryToken(storeID: storeID, position: position), position < current)
    }

    /// The groups' and memberships' queries (contacts come through ``ContactLoader/loadRange(_:afterRowid:limit:)``);
    /// arguments are (after first, after first, after second, limit).
    static func snapshotSQL(_ phase: HistoryToken.Phase) -> String {
        switch phase {
        case .contacts, .groups:
            """
            SELECT g.rowid, 0, g.id, k.id FROM "group" g JOIN container k ON k.rowid = g.containerRowid
            WHERE g.rowid > ?1 ORDER BY g.rowid LIMIT ?4
            """
        case .members:
            """
            SELECT m.groupRowid, m.contactRowid, g.id, c.id FROM groupMember m
            JOIN "group" g ON g.rowid = m.groupRowid JOIN contact c ON c.rowid = m.contactRowid
            WHERE m.groupRowid >= ?1 AND (m.groupRowid, m.contactRowid) > (?2, ?3)
            ORDER BY m.groupRowid, m.contactRowid LIMIT ?4
            """
        }
    }

    /// Appends add events for up to `budget` contacts after the cursor, each with its contact attached; `false`
    /// when more contacts remain.
    private func snapshotContacts(
        _ db: Database, after cursor: inout HistoryToken.Snapshot, budget: Int, into events: inout [ChangeHistoryEvent]
    ) throws -> Bool {
        // One row past the budget says whether the phase goes on; it is not an event of this page.
        var loaded = try ContactLoader(keys: request.contactKeys).loadRange(
            db, afterRowid: cursor.afterFirst, limit: budget + 1)
        let more = loaded.contacts.count > budget
        if more {
            loaded.contacts.removeLast()
            loaded.rowids.removeLast()
        }
        cursor.afterFirst = loaded.rowids.last ?? cursor.afterFirst
        events.reserveCapacity(events.count + loaded.contacts.count)
        // Moved into their events, never copied (a copy costs a retain per reference a contact holds).
        // Popped from the end into their places, in rowid order: a pop moves, while reversing swaps by copying.
        let first = events.count
        events.append(contentsOf: repeatElement(ChangeHistoryEvent(kind: .addContact), count: loaded.contacts.count))
        var slot = events.count
        while let contact = loaded.contacts.popLast() {
            slot -= 1
            var event = ChangeHistoryEvent(
                kind: .addContact, contact: contact.identifier, container: contact.containerIdentifier)
            event.contact = consume contact
            events[slot] = event
        }
        assert(slot == first)
        return !more
    }
}
