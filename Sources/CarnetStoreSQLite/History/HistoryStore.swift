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
}
