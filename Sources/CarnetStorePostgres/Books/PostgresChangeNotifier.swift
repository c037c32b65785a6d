import CarnetStore
import Foundation
import Logging
import PostgresNIO

extension ChangeNotifier {
    /// A PostgreSQL book's notifier in this instance: woken by the instance's `LISTEN` connection
    /// (``PostgresBooks``) and by its own saves, and polling the book's row while anyone listens as a fallback.
    static func postgres(database: PostgresDatabase, bookID: String, storeID: String, interval: TimeInterval)
        -> ChangeNotifier
    {
        let logger = database.logger
        return ChangeNotifier(
            interval: interval,
            newestRevision: {
                try await database.read { connection in
                    try await connection.rows(
                        "SELECT last_seq FROM book_store WHERE book_id = \(bookID)", logger: logger
                    ).decode(Int64.self).array().first ?? 0
                }
            },
            changesSince: { since in
                try await database.read { connection -> StoreChange? in
                    guard
                        let (newest, position) = try await connection.rows(
                            "SELECT last_seq, last_position FROM book_store WHERE book_id = \(bookID)", logger: logger
                        ).decode((Int64, Int64).self).array().first, newest > since
                    else { return nil }
                    let authors = try await connection.rows(
                        """
                        SELECT author FROM save_transaction
                        WHERE book_id = \(bookID) AND seq > \(since) AND seq <= \(newest) ORDER BY seq
                        """, logger: logger
                    ).decode(String?.self).array()
                    var seen = Set<String?>()
                    let mark = try await PostgresHistoryMarks.mark(
                        connection, book: bookID, at: position, logger: logger)
                    let token = HistoryToken(storeID: storeID, position: position, mark: mark).encoded
                    return StoreChange(
                        token: token, authors: authors.filter { seen.insert($0).inserted }, revision: newest)
                }
            })
    }
}

extension PostgresStore {
    /// Yields after each commit to the book, this instance's or another's: the new history token and the commits'
    /// authors, folded when the subscriber reads slowly, none dropped.
    public func changes() async -> StoreChanges { await notifier.changes() }
}
