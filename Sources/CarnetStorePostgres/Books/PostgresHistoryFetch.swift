import CarnetStore
import Foundation
import PostgresNIO

/// Runs one ``ChangeHistoryFetchRequest`` in one repeatable-read snapshot: the same paging, coalescing and token
/// rules as every backend (``HistoryCoalescer``, ``HistoryToken``), over the book's log.
struct PostgresHistoryFetch {
    let request: ChangeHistoryFetchRequest
    let store: PostgresStore
    let connection: PostgresConnection

    /// Raw events read per query: bounded so memory stays flat however long the history is.
    static let chunkSize = 512

    typealias Page = (events: [ChangeHistoryEvent], token: HistoryToken, hasMore: Bool)

    func run() async throws -> ChangeHistoryPage {
        let (current, oldest) = try await positions()
        var page: Page
        var use = HistoryToken.classify(request.startingToken, storeID: store.storeID, oldest: oldest, current: current)
        // The mark checked, kept for a page that ends where it began (no events): one lookup, not two.
        var checked: (position: Int64, mark: UInt64?)?
        if case .usable(let token) = use {
            let mark = try await mark(at: token.position)
            checked = (token.position, mark)
            // Another commit stands at the token's position: the book was put back and went on differently.
            if !token.agrees(withStoredMark: mark) { use = .unusable(.tokenAhead) }
        }
        switch use {
        case .usable(let token):
            if let snapshot = token.snapshot {
                page = try await snapshotPage(
                    at: token.position, from: snapshot, budget: request.limit, current: current)
            } else {
                page = try await incrementalPage(from: token.position, current: current)
            }
        case .unusable(let reason):
            let start = HistoryToken.Snapshot(phase: .contacts, afterFirst: 0, afterSecond: 0)
            page = try await snapshotPage(at: current, from: start, budget: request.limit - 1, current: current)
            var drop = ChangeHistoryEvent(kind: .dropEverything)
            drop.dropReason = reason
            page.events.insert(drop, at: 0)
        }
        try await attachRecords(to: &page.events)
        if let checked, checked.position == page.token.position {
            page.token.mark = checked.mark
        } else {
            page.token.mark = try await mark(at: page.token.position)
        }
        return ChangeHistoryPage(events: page.events, token: page.token.encoded, hasMore: page.hasMore)
    }

    /// The book's newest log position and the oldest a token may hold.
    func positions() async throws -> (current: Int64, oldest: Int64) {
        try await connection.rows(
            "SELECT last_position, oldest_position FROM book_store WHERE book_id = \(store.bookID)",
            logger: store.logger
        ).decode((Int64, Int64).self).array().first ?? (0, 0)
    }

    private func mark(at position: Int64) async throws -> UInt64? {
        try await PostgresHistoryMarks.mark(connection, book: store.bookID, at: position, logger: store.logger)
    }

    /// Coalesces events after `start`, stopping before the event that would exceed the page size.
    private func incrementalPage(from start: Int64, current: Int64) async throws -> Page {
        var coalescer = HistoryCoalescer(limit: request.limit)
        var position = start
        var scanned = 0
        let maxScanned = max(request.limit * 50, 50_000)
        scan: while position < current {
            let rows = try await connection.rows(
                """
                SELECT e.position, e.kind, e.record_id, e.other_id, e.changed_keys, t.author
                FROM change_event e JOIN save_transaction t ON t.book_id = e.book_id AND t.seq = e.seq
                WHERE e.book_id = \(store.bookID) AND e.position > \(position)
                ORDER BY e.position LIMIT \(Self.chunkSize)
                """, logger: store.logger
            ).decode((Int64, Int16, String, String?, String?, String?).self).array()
            for (eventPosition, kindCode, recordID, otherID, changedKeys, author) in rows {
                let kind = ChangeEventKind(rawValue: Int(kindCode)) ?? .updateContact
                // An excluded author's event may still go out to a subscription (see ``ExclusionGuard``).
                let excluded =
                    author.map(request.excludedAuthors.contains) ?? false
                    && !request.exclusionGuard.keeps(
                        position: eventPosition, kind: kind, recordId: recordID, otherId: otherID)
                if !excluded && (request.includeGroupChanges || !kind.isGroupChange) {
                    let keys =
                        kind == .updateContact
                        ? ChangedKeys.keys(changedKeys ?? "")
                        : []
                    let raw = HistoryCoalescer.Raw(
                        kind: kind, recordId: recordID, otherId: otherID, changedKeys: keys, author: author)
                    guard coalescer.add(raw) else { break scan }
                }
                position = eventPosition
                scanned += 1
                if scanned >= maxScanned { break scan }
            }
            if rows.isEmpty { break }
        }
        return (coalescer.events, HistoryToken(storeID: store.storeID, position: position), position < current)
    }

    /// Enumerates current records as add events: contacts, then (with group changes) groups and memberships.
    private func snapshotPage(at position: Int64, from start: HistoryToken.Snapshot, budget: Int, current: Int64)
        async throws -> Page
    {
        var events: [ChangeHistoryEvent] = []
        var cursor = start
        let phases: [HistoryToken.Phase] = request.includeGroupChanges ? [.contacts, .groups, .members] : [.contacts]
        for phase in phases where phase.rawValue >= start.phase.rawValue {
            if phase != cursor.phase { cursor = .init(phase: phase, afterFirst: 0, afterSecond: 0) }
            let remaining = budget - events.count
            let more: Bool
            switch phase {
            case .contacts: more = try await snapshotContacts(after: &cursor, budget: remaining, into: &events)
            case .groups: more = try await snapshotGroups(after: &cursor, budget: remaining, into: &events)
            case .members: more = try await snapshotMembers(after: &cursor, budget: remaining, into: &events)
            }
            if more {
                return (events, HistoryToken(storeID: store.storeID, position: position, snapshot: cursor), true)
            }
        }
        return (events, HistoryToken(storeID: store.storeID, position: position), position < current)
    }

    /// Add events for up to `budget` contacts after the cursor, with the contacts attached; `true` when more remain.
    private func snapshotContacts(
        after cursor: inout HistoryToken.Snapshot, budget: Int, into events: inout [ChangeHistoryEvent]
    ) async throws -> Bool {
        let loader = PostgresContactLoader(keys: request.contactKeys)
        var sql = SQLBuilder()
        let text = """
            SELECT \(loader.selectSQL) FROM contact c WHERE c.book_id = \(try sql.bind(store.bookID))
            AND c.created_order > \(try sql.bind(cursor.afterFirst)) ORDER BY c.created_order
            LIMIT \(try sql.bind(budget + 1))
            """
        var contacts: [Contact] = []
        var orders: [Int64] = []
        for try await row in try await connection.rows(sql.query(text), logger: store.logger) {
            let (order, contact, _) = try loader.decode(row)
            contacts.append(contact)
            orders.append(order)
        }
        let more = contacts.count > budget
        if more {
            contacts.removeLast()
            orders.removeLast()
        }
        cursor.afterFirst = orders.last ?? cursor.afterFirst
        try await loader.loadRelated(connection, store: store, into: &contacts)
        for contact in contacts {
            var event = ChangeHistoryEvent(
                kind: .addContact, contact: contact.identifier, container: contact.containerIdentifier)
            event.contact = contact
            events.append(event)
        }
        return more
    }

    private func snapshotGroups(
        after cursor: inout HistoryToken.Snapshot, budget: Int, into events: inout [ChangeHistoryEvent]
    ) async throws -> Bool {
        let rows = try await connection.rows(
            """
            SELECT created_order, id, container_id FROM contact_group
            WHERE book_id = \(store.bookID) AND created_order > \(cursor.afterFirst)
            ORDER BY created_order LIMIT \(budget + 1)
            """, logger: store.logger
        ).decode((Int64, String, String).self).array()
        for (order, group, container) in rows.prefix(budget) {
            cursor.afterFirst = order
            events.append(ChangeHistoryEvent(kind: .addGroup, group: group, container: container))
        }
        return rows.count > budget
    }

    private func snapshotMembers(
        after cursor: inout HistoryToken.Snapshot, budget: Int, into events: inout [ChangeHistoryEvent]
    ) async throws -> Bool {
        let rows = try await connection.rows(
            """
            SELECT group_order, contact_order, group_id, contact_id FROM group_member
            WHERE book_id = \(store.bookID) AND group_order >= \(cursor.afterFirst)
                AND (group_order, contact_order) > (\(cursor.afterFirst), \(cursor.afterSecond))
            ORDER BY group_order, contact_order LIMIT \(budget + 1)
            """, logger: store.logger
        ).decode((Int64, Int64, String, String).self).array()
        for (groupOrder, contactOrder, group, contact) in rows.prefix(budget) {
            cursor.afterFirst = groupOrder
            cursor.afterSecond = contactOrder
            events.append(ChangeHistoryEvent(kind: .addMemberToGroup, contact: contact, group: group))
        }
        return rows.count > budget
    }
}
