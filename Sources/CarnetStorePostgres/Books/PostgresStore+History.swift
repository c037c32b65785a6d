import CarnetStore
import Foundation
import PostgresNIO

extension PostgresStore {
    public func changeHistory(_ request: ChangeHistoryFetchRequest) async throws -> ChangeHistoryPage {
        guard (1...10_000).contains(request.limit) else {
            throw StoreError(.predicateInvalid, "History page sizes go from 1 to 10000")
        }
        if request.unifyResults { return try await UnifiedHistory.page(request, in: self) }
        // One snapshot for the page: the positions, the events and the records they carry agree.
        return try await database.readInOneState { connection in
            try await PostgresHistoryFetch(request: request, store: self, connection: connection).run()
        }
    }

    public func currentHistoryToken() async throws -> String {
        try await token { current, _ in current }
    }

    public func oldestValidHistoryToken() async throws -> String {
        try await token { _, oldest in oldest }
    }

    /// A token for one of the book's positions (newest, oldest), with its commit's mark. Compaction between the two
    /// reads moves the mark to the book's row, where ``PostgresHistoryMarks`` finds it.
    private func token(at choose: (Int64, Int64) -> Int64) async throws -> String {
        let (bookID, storeID, logger) = (bookID, storeID, logger)
        return try await read { connection in
            let (current, oldest) =
                try await connection.rows(
                    "SELECT last_position, oldest_position FROM book_store WHERE book_id = \(bookID)", logger: logger
                ).decode((Int64, Int64).self).array().first ?? (Int64(0), Int64(0))
            let position = choose(current, oldest)
            let mark = try await PostgresHistoryMarks.mark(connection, book: bookID, at: position, logger: logger)
            return HistoryToken(storeID: storeID, position: position, mark: mark).encoded
        }
    }

    /// Deletes history older than the cutoff (the configured retention when `nil`); returns the events deleted.
    @discardableResult
    public func compactHistory(olderThan cutoff: Date?) async throws -> Int {
        let cutoff = (cutoff ?? Date().addingTimeInterval(-configuration.historyRetention)).timeIntervalSince1970
        let (bookID, logger) = (bookID, logger)
        return try await database.write { connection in
            // Under the book's lock, so the oldest position moves with no save in between.
            _ = try await connection.rows(
                "SELECT 1 FROM book_store WHERE book_id = \(bookID) FOR UPDATE", logger: logger
            ).collect()
            guard
                let lastSeq = try await connection.rows(
                    """
                    SELECT seq FROM save_transaction WHERE book_id = \(bookID) AND timestamp < \(cutoff)
                    ORDER BY timestamp DESC LIMIT 1
                    """, logger: logger
                ).decode(Int64.self).array().first,
                let last = try await connection.rows(
                    """
                    SELECT position FROM change_event WHERE book_id = \(bookID) AND seq <= \(lastSeq)
                    ORDER BY seq DESC, position DESC LIMIT 1
                    """, logger: logger
                ).decode(Int64.self).array().first
            else { return 0 }
            // The oldest position's event goes: its mark stays, so a token held there still proves its history.
            let mark = try await PostgresHistoryMarks.mark(connection, book: bookID, at: last, logger: logger)
            try await connection.rows(
                """
                DELETE FROM labeled_value_version WHERE book_id = \(bookID) AND superseded_revision <= \(lastSeq)
                """, logger: logger)
            let deleted = try await connection.rows(
                "DELETE FROM change_event WHERE book_id = \(bookID) AND position <= \(last) RETURNING position",
                logger: logger
            ).collect().count
            try await connection.rows(
                """
                UPDATE book_store SET oldest_position = \(last), oldest_mark = \(mark.map { Int64(bitPattern: $0) })
                WHERE book_id = \(bookID) AND oldest_position < \(last)
                """, logger: logger)
            try await connection.rows(
                "DELETE FROM save_transaction WHERE book_id = \(bookID) AND seq <= \(lastSeq)", logger: logger)
            return deleted
        }
    }

    /// `pg_dump` copies a PostgreSQL database consistently; a book alone is exported as vCards.
    public func backup(to path: String) async throws {
        throw StoreError(
            .validationFailed, "Back up a PostgreSQL database with pg_dump; export a book with carnet export.",
            keyPaths: ["path"])
    }

    public func statistics() async throws -> StoreStatistics {
        try await read { connection in
            let (contacts, groups, bytes) =
                try await connection.rows(
                    """
                    SELECT s.contact_count,
                        (SELECT count(*) FROM contact_group g WHERE g.book_id = s.book_id)::bigint,
                        pg_database_size(current_database())::bigint
                    FROM book_store s WHERE s.book_id = \(bookID)
                    """, logger: logger
                ).decode((Int64, Int64, Int64).self).array().first ?? (Int64(0), Int64(0), Int64(0))
            return StoreStatistics(contacts: Int(contacts), groups: Int(groups), databaseBytes: Int(bytes))
        }
    }
}
