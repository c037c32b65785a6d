import CarnetStore
import GRDB

/// Runs one ``ChangeHistoryFetchRequest`` in a read transaction.
struct HistoryFetch {
    let request: ChangeHistoryFetchRequest
    let storeID: String

    /// Raw events read per query: bounded so memory stays flat however long the history is.
    static let chunkSize = 512

    func run(_ db: Database) throws -> ChangeHistoryPage {
        let current = try HistoryStore.currentPosition(db)
        let oldest = try HistoryStore.oldestPosition(db)
        var page: (events: [ChangeHistoryEvent], token: HistoryToken, hasMore: Bool)
        var use = HistoryToken.classify(request.startingToken, storeID: storeID, oldest: oldest, current: current)
        // The mark checked, kept for a page that ends where it began (no events): one lookup, not two.
        var checked: (position: Int64, mark: UInt64?)?
        if case .usable(let token) = use {
            let mark = try HistoryStore.mark(db, at: token.position)
            checked = (token.position, mark)
            // Another commit stands at the token's position: the book was put back and went on differently.
            if !token.agrees(withStoredMark: mark) { use = .unusable(.tokenAhead) }
        }
        switch use {
        case .usable(let token):
            if let snapshot = token.snapshot {
                page = try snapshotPage(db, at: token.position, from: snapshot, budget: request.limit, current: current)
            } else {
                page = try incrementalPage(db, from: token.position, current: current)
            }
        case .unusable(let reason):
            // No usable token: start a full sync at the current position.
            let start = HistoryToken.Snapshot(phase: .contacts, afterFirst: 0, afterSecond: 0)
            page = try snapshotPage(db, at: current, from: start, budget: request.limit - 1, current: current)
            var drop = ChangeHistoryEvent(kind: .dropEverything)
            drop.dropReason = reason
            page.events.insert(drop, at: 0)
        }
        try attachRecords(db, to: &page.events)
        if let checked, checked.position == page.token.position {
            page.token.mark = checked.mark
        } else {
            page.token.mark = try HistoryStore.mark(db, at: page.token.position)
        }
        return ChangeHistoryPage(events: page.events, token: page.token.encoded, hasMore: page.hasMore)
    }

    /// Coalesces events after `position`, stopping before the event that would exceed the page size.
    private func incrementalPage(_ db: Database, from start: Int64, current: Int64) throws
        -> (events: [ChangeHistoryEvent], token: HistoryToken, hasMore: Bool)
    {
        var coalescer = HistoryCoalescer(limit: request.limit)
        var position = start
        var scanned = 0
        let maxScanned = max(request.limit * 50, 50_000)
        let statement = try db.cachedStatement(
            sql: """
                SELECT e.position, e.kind, e.recordId, e.otherId, e.changedKeys, t.author, e.seq
                FROM changeEvent e JOIN saveTransaction t ON t.seq = e.seq
                WHERE e.position > ? ORDER BY e.position LIMIT ?
                """)
        var lastSeq: Int64 = -1
        var author: String?
        var excluded = false
        scan: while position < current {
            let rows = try SQLiteRows(statement, arguments: [position, Self.chunkSize])
            var read = 0
            while let row = try rows.next() {
                read += 1
                // A save's events come together: read its author once, not a string per event.
                let seq = row.int64(6)
                if seq != lastSeq {
                    lastSeq = seq
                    author = row.optionalString(5)
                    excluded = author.map(request.excludedAuthors.contains) ?? false
                }
                let kind = ChangeEventKind(rawValue: row.int(1)) ?? .updateContact
                // An excluded author's event may still go out to a subscription (see ``ExclusionGuard``).
                if request.includeGroupChanges || !kind.isGroupChange,
                    !excluded
                        || (!request.exclusionGuard.keepsNone
                            && request.exclusionGuard.keeps(
                                position: row.int64(0), kind: kind, recordId: row.string(2),
                                otherId: row.optionalString(3)))
                {
                    let keys =
                        kind == .updateContact
                        ? ChangedKeys.keys(row.string(4)) : []
                    let raw = HistoryCoalescer.Raw(
                        kind: kind, recordId: row.string(2), otherId: row.optionalString(3),
                        changedKeys: keys, author: author)
                    guard coalescer.add(raw) else { break scan }
                }
                position = row.int64(0)
                scanned += 1
                if scanned >= maxScanned { break scan }
            }
            if read == 0 { break }
        }
        return (coalescer.events, HistoryToken(storeID: storeID, position: position), position < current)
    }
}
