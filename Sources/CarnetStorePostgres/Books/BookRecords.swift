import Logging
import PostgresNIO

/// Deleting a book's records, inside the catalog's transaction that removes the book.
///
/// The catalog and the records share one database, so the book leaves both at once: deleted in two transactions, a
/// failure between them (a dropped connection, an instance stopped) left the records of a book no one could reach
/// or delete any more.
enum BookRecords {
    /// Deletes every row of the book. Its `book_store` row is locked first, as every save locks it first: a save in
    /// progress finishes before, one that comes after finds no book. Deleting table by table without it deadlocked
    /// with saves.
    static func delete(_ connection: PostgresConnection, bookID: String, logger: Logger) async throws {
        try await connection.rows("SELECT 1 FROM book_store WHERE book_id = \(bookID) FOR UPDATE", logger: logger)
        for table in BookSchema.bookTables {
            try await connection.rows("DELETE FROM \(unescaped: table) WHERE book_id = \(bookID)", logger: logger)
        }
    }
}
