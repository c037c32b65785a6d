import CarnetStore
import Foundation
import GRDB

extension ChangeNotifier {
    /// A SQLite book's notifier: other processes' commits (which SQLite cannot signal) are found by polling the
    /// newest revision while anyone listens.
    static func sqlite(database: StoreDatabase, storeID: String, interval: TimeInterval) -> ChangeNotifier {
        ChangeNotifier(
            interval: interval,
            newestRevision: { try await database.writer().read(newestSeq) },
            changesSince: { since in
                try await database.writer().read { db -> StoreChange? in
                    let newest = try newestSeq(db)
                    guard newest > since else { return nil }
                    let authors = try Row.fetchAll(
                        db.cachedStatement(
                            sql: """
                                SELECT author FROM saveTransaction WHERE seq > ? AND seq <= ?
                                AND EXISTS (SELECT 1 FROM changeEvent e WHERE e.seq = saveTransaction.seq) ORDER BY seq
                                """), arguments: [since, newest]
                    ).map { $0[0] as String? }
                    var seen = Set<String?>()
                    let token = try HistoryStore.token(
                        db, storeID: storeID, at: try HistoryStore.currentPosition(db)
                    ).encoded
                    return StoreChange(
                        token: token, authors: authors.filter { seen.insert($0).inserted }, revision: newest)
                }
            })
    }

    private static func newestSeq(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(seq) FROM saveTransaction")) ?? 0
    }
}

extension SQLiteStore {
    /// Yields after each commit, this process's or another's on the same file (seen within
    /// ``StoreConfiguration/externalChangePollInterval``): the new history token and the commits' authors.
    /// Commits the subscriber has not read yet arrive folded into one element, which names every author; none
    /// is dropped. The external-change callback of the Contacts framework. Every commit after this call returns
    /// is announced.
    public func changes() async -> StoreChanges { await notifier.changes() }
}
