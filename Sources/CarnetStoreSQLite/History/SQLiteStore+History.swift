import CarnetStore
import Foundation
import GRDB
import Synchronization

extension SQLiteStore {
    /// Fetches change history since a token, coalesced per record (TN3149 semantics).
    ///
    /// Full and incremental sync are the same loop: start with no token (or any token the store cannot use:
    /// malformed, another store's, expired) to receive `dropEverything` and an add event for every record;
    /// keep ``ChangeHistoryPage/token`` and fetch again while ``ChangeHistoryPage/hasMore``, and later.
    public func changeHistory(_ request: ChangeHistoryFetchRequest) async throws -> ChangeHistoryPage {
        guard (1...10_000).contains(request.limit) else {
            throw StoreError(.predicateInvalid, "History page sizes go from 1 to 10000")
        }
        if request.unifyResults { return try await UnifiedHistory.page(request, in: self) }
        let storeID = self.storeID
        return try await databaseRead { db in try HistoryFetch(request: request, storeID: storeID).run(db) }
    }

    /// The token for "now": changes fetched since it start after the latest commit.
    public func currentHistoryToken() async throws -> String {
        let storeID = self.storeID
        return try await databaseRead { db in
            try HistoryStore.token(db, storeID: storeID, at: try HistoryStore.currentPosition(db)).encoded
        }
    }

    /// The oldest token still valid: history before it was compacted, so older tokens fetch a full sync.
    public func oldestValidHistoryToken() async throws -> String {
        let storeID = self.storeID
        return try await databaseRead { db in
            try HistoryStore.token(db, storeID: storeID, at: try HistoryStore.oldestPosition(db)).encoded
        }
    }

    /// Deletes history older than ``StoreConfiguration/historyRetention`` (the store also does this by itself
    /// after saves, at most once a minute).
    ///
    /// - Returns: the number of events deleted.
    @discardableResult
    public func compactHistory(olderThan cutoff: Date?) async throws -> Int {
        let cutoff = (cutoff ?? Date().addingTimeInterval(-configuration.historyRetention)).timeIntervalSince1970
        return try await databaseWrite { db in
            // Both look-ups walk an index from its end: compaction with nothing to do costs two seeks.
            guard
                let lastSeq = try Int64.fetchOne(
                    db, sql: "SELECT seq FROM saveTransaction WHERE timestamp < ? ORDER BY timestamp DESC LIMIT 1",
                    arguments: [cutoff]),
                let last = try Int64.fetchOne(
                    db, sql: "SELECT position FROM changeEvent WHERE seq <= ? ORDER BY seq DESC, position DESC LIMIT 1",
                    arguments: [lastSeq]),
                last > (try HistoryStore.oldestPosition(db))
            else { return 0 }
            // The oldest position's event goes: its mark stays, so a token held there still proves its history.
            if let mark = try HistoryStore.mark(db, at: last) {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO storeInfo (key, value) VALUES ('oldestMark', ?)",
                    arguments: [String(mark, radix: 16)])
            } else {
                try db.execute(sql: "DELETE FROM storeInfo WHERE key = 'oldestMark'")
            }
            // Value versions only serve merges based on revisions inside the retained history.
            try db.execute(sql: "DELETE FROM labeledValueVersion WHERE supersededRevision <= ?", arguments: [lastSeq])
            try db.execute(sql: "DELETE FROM changeEvent WHERE position <= ?", arguments: [last])
            let deleted = db.changesCount
            try db.execute(
                sql: "UPDATE storeInfo SET value = ? WHERE key = 'oldestPosition' AND CAST(value AS INTEGER) < ?",
                arguments: [String(last), last])
            // Keep the newest transaction row: it carries the latest revision the change notifier compares.
            try db.execute(
                sql: "DELETE FROM saveTransaction WHERE seq <= ? AND seq < (SELECT max(seq) FROM saveTransaction)",
                arguments: [lastSeq])
            return deleted
        }
    }
}

/// Decides when saves trigger history compaction.
final class MaintenanceClock: Sendable {
    private let lastRun = Mutex<Date>(.distantPast)

    func compactIfDue(_ store: SQLiteStore) async {
        let now = Date()
        let due = lastRun.withLock { last in
            guard now.timeIntervalSince(last) >= 60 else { return false }
            last = now
            return true
        }
        // Compaction is housekeeping: a failure here must not fail the save that triggered it.
        if due { _ = try? await store.compactHistory() }
    }
}
