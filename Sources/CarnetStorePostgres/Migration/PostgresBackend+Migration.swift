import CarnetStore
import Foundation
import PostgresNIO

extension PostgresBackend: StoreMigrationTarget {
    /// Empty means what a first start leaves: at most the admin principal with its default book, and no record,
    /// history, grant or other book anywhere. The admin's tokens are allowed: the copy replaces them.
    public func isEmptyForMigration() async throws -> Bool {
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
                        + (SELECT count(*) FROM contact_group)
                """, logger: logger
            ).decode((Int64, Int64, Int64, Int64, Int64).self).array().first
            guard let counts else { return false }
            return counts.0 == 0 && counts.1 <= 1 && counts.2 == 0 && counts.3 == 0 && counts.4 == 0
        }
    }

    /// Replaces the catalog in one transaction; the records of the books it held (a first start's empty default
    /// book) go with it.
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
