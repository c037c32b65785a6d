import CarnetStore
import Foundation
import PostgresNIO

extension PostgresBackend: StoreMigrationTarget {
    /// Empty means what a first start leaves: at most the admin principal with its default book and the `admin`
    /// token the start printed (the copy replaces it), and no record, history, grant, other book or other token
    /// anywhere: an operator's token made there was dropped without a word (an outside tester's find).
    public func isEmptyForMigration() async throws -> Bool {
        // A copy that did not finish is replaced whole by the next: nothing else wrote there, as servers refuse it.
        if try await Self.hasUnfinishedMigration(database) { return true }
        let logger = database.logger
        return try await database.read { connection in
            let counts = try await connection.rows(
                """
                SELECT (SELECT count(*) FROM principal WHERE NOT is_admin),
                    (SELECT count(*) FROM principal),
                    (SELECT count(*) FROM address_book b JOIN principal p ON p.id = b.owner_id
                        WHERE b.id IS DISTINCT FROM p.default_book_id),
                    (SELECT count(*) FROM book_grant),
                    (SELECT count(*) FROM change_event) + (SELECT count(*) FROM contact)
                        + (SELECT count(*) FROM contact_group),
                    (SELECT count(*) FROM access_token WHERE name <> 'admin') + greatest(
                        (SELECT count(*) FROM access_token WHERE name = 'admin') - 1, 0)
                """, logger: logger
            ).decode((Int64, Int64, Int64, Int64, Int64, Int64).self).array().first
            guard let counts else { return false }
            return counts.0 == 0 && counts.1 <= 1 && counts.2 == 0 && counts.3 == 0 && counts.4 == 0 && counts.5 == 0
        }
    }

    /// Replaces the catalog in one transaction; the records of the books it held (a first start's empty default
    /// book, or an unfinished copy's books) go with it, and the database is marked as holding an unfinished copy.
    public func importCatalog(_ archive: CatalogArchive) async throws {
        let logger = database.logger
        try await database.write { connection in
            for table in BookSchema.bookTables {
                try await connection.rows(
                    "DELETE FROM \(unescaped: table) WHERE book_id IN (SELECT id FROM address_book)", logger: logger)
            }
            for table in ["access_token", "book_grant", "address_book", "principal", "retired_identifier"] {
                try await connection.rows("DELETE FROM \(unescaped: table)", logger: logger)
            }
            try await CatalogImport(connection: connection, logger: logger).insert(archive)
            try await connection.rows("DELETE FROM unfinished_migration", logger: logger)
            try await connection.rows(
                "INSERT INTO unfinished_migration (started_at) VALUES (\(Date().timeIntervalSince1970))",
                logger: logger)
        }
    }

    public func finishMigration() async throws {
        let logger = database.logger
        try await database.write { connection in
            try await connection.rows("DELETE FROM unfinished_migration", logger: logger)
        }
    }

    /// Whether a copy by migrate-store began and did not finish (``CatalogSchema/v2``).
    static func hasUnfinishedMigration(_ database: PostgresDatabase) async throws -> Bool {
        let logger = database.logger
        return try await database.read { connection in
            try await connection.rows("SELECT EXISTS (SELECT 1 FROM unfinished_migration)", logger: logger)
                .decode(Bool.self).array().first ?? false
        }
    }

    /// Copies the book in one transaction, from the source's snapshot of it.
    public func importBook(_ book: AddressBook, from source: any StoreMigrationSource) async throws {
        let logger = database.logger
        try await database.write { connection in
            let importer = BookImport(connection: connection, logger: logger, bookID: book.id)
            try await importer.clear()
            try await source.exportBook(book) { section in try await importer.insert(section) }
            try await importer.finish()
        }
    }
}
