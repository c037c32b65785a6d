import CarnetStore
import Foundation
import Logging
import PostgresNIO

/// Writes a ``CatalogArchive`` into an emptied catalog, inside the caller's transaction.
struct CatalogImport {
    let connection: PostgresConnection
    let logger: Logger

    func insert(_ archive: CatalogArchive) async throws {
        for principal in archive.principals {
            try await connection.rows(
                """
                INSERT INTO principal (id, name, kind, is_admin, created_at, disabled_at, default_book_id)
                VALUES (\(principal.id), \(principal.name), \(principal.kind.rawValue), \(principal.isAdmin),
                    \(principal.created.timeIntervalSince1970), \(principal.disabled?.timeIntervalSince1970),
                    \(principal.defaultBookID))
                """, logger: logger)
        }
        for book in archive.books {
            try await connection.rows(
                """
                INSERT INTO address_book (id, name, owner_id, created_at)
                VALUES (\(book.id), \(book.name), \(book.ownerID), \(book.created.timeIntervalSince1970))
                """, logger: logger)
        }
        for grant in archive.grants {
            try await connection.rows(
                """
                INSERT INTO book_grant (book_id, principal_id, access, granted_at)
                VALUES (\(grant.bookID), \(grant.principalID), \(grant.access.rawValue),
                    \(grant.granted.timeIntervalSince1970))
                """, logger: logger)
        }
        for token in archive.tokens { try await PostgresCatalog.insert(token, connection, logger: logger) }
        try await connection.rows(
            """
            INSERT INTO retired_identifier (id) SELECT id FROM unnest(\(archive.retiredIdentifiers)::text[]) AS id
            ON CONFLICT DO NOTHING
            """, logger: logger)
    }
}
