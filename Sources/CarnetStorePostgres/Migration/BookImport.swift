import CarnetStore
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Writes a book's archive sections into the shared tables under its `book_id`, inside the caller's transaction.
///
/// Each section's rows go in as one statement over arrays (`unnest`): a statement per row made a copy of a large
/// book take minutes of round trips. Derived data (sort keys, name words, search keys) is computed here with the
/// same functions a save uses, so searches find exactly what they found on the source.
struct BookImport: Sendable {
    let connection: PostgresConnection
    let logger: Logger
    let bookID: String
    /// Contacts written so far, and how many there were at the last `ANALYZE`.
    let contactsWritten = Counts()

    final class Counts: Sendable {
        let state = Mutex<(written: Int, analyzed: Int)>((0, 0))
    }

    /// Removes whatever the book holds (a store row made by an earlier open), so the copy starts from nothing.
    func clear() async throws {
        for table in BookSchema.bookTables {
            try await connection.rows("DELETE FROM \(unescaped: table) WHERE book_id = \(bookID)", logger: logger)
        }
    }

    func insert(_ section: BookArchiveSection) async throws {
        switch section {
        case .header(let header):
            try await connection.rows(
                """
                INSERT INTO book_store (
                    book_id, store_id, last_seq, last_position, oldest_position, oldest_mark, user_default_sort)
                VALUES (\(bookID), \(header.storeID), \(header.lastRevision), \(header.lastPosition),
                    \(header.oldestPosition), \(header.oldestMark.map { Int64(bitPattern: $0) }),
                    \(header.userDefaultSortOrder))
                """, logger: logger)
        case .containers(let containers):
            for container in containers {
                try await connection.rows(
                    """
                    INSERT INTO container (book_id, id, name, type, is_default, revision, created_at, modified_at)
                    VALUES (\(bookID), \(container.identifier), \(container.name), \(Int16(container.type.rawValue)),
                        \(container.isDefault), \(container.revision), \(container.createdAt?.timeIntervalSince1970 ?? 0),
                        \(container.modifiedAt?.timeIntervalSince1970 ?? 0))
                    """, logger: logger)
            }
        case .contacts(let contacts): try await insertContacts(contacts)
        case .groups(let groups): try await insertGroups(groups)
        case .memberships(let memberships): try await insertMemberships(memberships)
        case .links(let groups): try await insertLinks(groups)
        case .valueVersions(let versions): try await insertValueVersions(versions)
        case .retiredIdentifiers(let retired): try await insertRetired(retired)
        case .transactions(let transactions): try await insertTransactions(transactions)
        case .events(let events): try await insertEvents(events)
        }
    }

    /// Refreshes the contacts' statistics each time the book has doubled. The foreign-key checks of the values and
    /// name words written next are planned from them: planned from a database that was empty, each check scanned
    /// the contacts written before it in this transaction, and a copy of 10,000 contacts took 70 s instead of 11.
    func analyzeIfGrown(adding count: Int) async throws {
        let due = contactsWritten.state.withLock { state in
            state.written += count
            // Small books leave the statistics alone: checks over a thousand rows are cheap whatever the plan.
            guard state.written >= max(1_000, 2 * state.analyzed) else { return false }
            state.analyzed = state.written
            return true
        }
        if due { try await connection.rows("ANALYZE contact", logger: logger) }
    }

    /// Counts the name prefixes and the contacts copied into the book's rows; after a large book, every table gets
    /// statistics for what it now holds (autovacuum would, later; the first requests should not wait for it).
    func finish() async throws {
        var bindings = PostgresBindings()
        bindings.append(bookID)
        try await connection.rows(
            PostgresQuery(unsafeSQL: BookSchema.countNamePrefixes("WHERE book_id = $1"), binds: bindings),
            logger: logger)
        try await connection.rows(
            PostgresQuery(unsafeSQL: BookSchema.fillLinkedNames("lh.book_id = $1"), binds: bindings), logger: logger)
        if contactsWritten.state.withLock({ $0.written }) >= 10_000 {
            for table in BookSchema.bookTables {
                try await connection.rows(PostgresQuery(unsafeSQL: "ANALYZE \(table)"), logger: logger)
            }
        }
        try await connection.rows(
            """
            UPDATE book_store SET contact_count = (SELECT count(*) FROM contact WHERE book_id = \(bookID))
            WHERE book_id = \(bookID)
            """, logger: logger)
    }

    /// Inserts a batch of the book's rows in one statement (``PostgresConnection/insertBatch(into:book:_:logger:)``).
    func insertRows(into table: String, _ columns: [BatchColumn]) async throws {
        try await connection.insertBatch(into: table, book: bookID, columns, logger: logger)
    }
}
