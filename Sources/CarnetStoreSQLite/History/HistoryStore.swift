import CarnetStore
import GRDB

/// Positions in the `changeEvent` table.
enum HistoryStore {
    /// The position of the newest event (0 when there is none).
    static func currentPosition(_ db: Database) throws -> Int64 {
        // sqlite_sequence remembers the highest position even after compaction deleted every event.
        // Cached: every save, history page and notification asks.
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM sqlite_sequence WHERE name = 'changeEvent'")) ?? 0
    }

    /// The oldest position a token may hold and still be incremental; older events were compacted away.
    static func oldestPosition(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT CAST(value AS INTEGER) FROM storeInfo WHERE key = 'oldestPosition'")) ?? 0
    }

    /// The mark (``HistoryToken/mark(revision:timestamp:)``) of the commit holding the event at `position`: from
    /// the event's transaction, or, for the oldest position once compaction removed its event, the mark compaction
    /// kept. `nil` at position 0 and where the store cannot tell (a file compacted before marks).
    static func mark(_ db: Database, at position: Int64) throws -> UInt64? {
        guard position > 0 else { return nil }
        if let row = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT t.seq, t.timestamp FROM changeEvent e JOIN saveTransaction t ON t.seq = e.seq
                    WHERE e.position = ?
                    """), arguments: [position])
        {
            return HistoryToken.mark(revision: row[0], timestamp: row[1])
        }
        guard position == (try oldestPosition(db)) else { return nil }
        return try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM storeInfo WHERE key = 'oldestMark'"))
            .flatMap { UInt64($0, radix: 16) }
    }

    /// A token for `position`, with its commit's mark.
    static func token(_ db: Database, storeID: String, at position: Int64, snapshot: HistoryToken.Snapshot? = nil)
        throws -> HistoryToken
    {
        HistoryToken(storeID: storeID, position: position, mark: try mark(db, at: position), snapshot: snapshot)
    }
}
