import CarnetStore
import Foundation
import Logging
import PostgresNIO

/// One address book's records on PostgreSQL: the rows of the shared tables under its `book_id`.
///
/// A store is a cheap handle (the pool is the backend's): instances serving the same book share nothing but the
/// database, which orders their saves (``BookSchema``).
public struct PostgresStore: Sendable {
    let database: PostgresDatabase
    /// The book whose rows this store reads and writes; every query names it.
    public let bookID: String
    /// Names this book in history tokens, so a token of another book (or of a book made again) is foreign.
    let storeID: String
    public let configuration: StoreConfiguration
    /// The book's subscribers in this instance.
    let notifier: ChangeNotifier
    /// Name prefix counts, shared by the backend's stores (``NamePrefixCounts``).
    let namePrefixCounts: NamePrefixCounts

    var logger: Logger { database.logger }

    /// The book's store, creating its store row and default container on first use.
    static func open(
        database: PostgresDatabase, bookID: String, configuration: StoreConfiguration,
        namePrefixCounts: NamePrefixCounts
    ) async throws -> PostgresStore {
        let logger = database.logger
        let storeID = try await database.write { connection -> String in
            let found = try await connection.rows(
                "SELECT store_id FROM book_store WHERE book_id = \(bookID)", logger: logger
            ).decode(String.self).array()
            if let storeID = found.first { return storeID }
            let storeID = UUID().uuidString
            // Two instances opening a new book at once: one inserts, the other finds its row. A deleted book's
            // identifier is retired: a request that found the book just before its deletion does not make it anew
            // (its saves would go where no one looks).
            let inserted = try await connection.rows(
                """
                INSERT INTO book_store (book_id, store_id) SELECT \(bookID), \(storeID)
                WHERE NOT EXISTS (SELECT 1 FROM retired_identifier WHERE id = \(bookID))
                ON CONFLICT (book_id) DO NOTHING RETURNING store_id
                """, logger: logger
            ).decode(String.self).array()
            guard !inserted.isEmpty else {
                guard
                    let existing = try await connection.rows(
                        "SELECT store_id FROM book_store WHERE book_id = \(bookID)", logger: logger
                    ).decode(String.self).array().first
                else { throw StoreError.noSuchBook(bookID) }
                return existing
            }
            let now = Date().timeIntervalSince1970
            try await connection.rows(
                """
                INSERT INTO container (book_id, id, name, type, is_default, revision, created_at, modified_at)
                VALUES (\(bookID), \(Contact.makeIdentifier()), 'Local', 1, true, 0, \(now), \(now))
                """, logger: logger)
            return storeID
        }
        // A query's snapshot, begun before the book's rows were written (here, or by another instance just now),
        // would find the book without its default container: the rest of the query reads as it comes. Once per
        // book and process.
        PostgresSnapshot.leave(database)
        let notifier = ChangeNotifier.postgres(
            database: database, bookID: bookID, storeID: storeID, interval: configuration.externalChangePollInterval)
        return PostgresStore(
            database: database, bookID: bookID, storeID: storeID, configuration: configuration, notifier: notifier,
            namePrefixCounts: namePrefixCounts)
    }

    /// The handle is released with the backend's pool; nothing to close per book.
    public func close() async throws {}

    /// Runs `body` with the reads in one snapshot (see ``ContactStore/withConsistentReads(_:)``). Every book of an
    /// instance shares its pool, so one snapshot serves the reads of all of them.
    public func withConsistentReads<T>(_ body: () async throws -> T) async throws -> T {
        try await database.withSnapshot(body)
    }

    func read<T>(_ body: (PostgresConnection) async throws -> sending T) async throws -> sending T {
        try await database.read(body)
    }
}
