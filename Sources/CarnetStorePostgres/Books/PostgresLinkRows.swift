import CarnetStore
import Logging
import PostgresNIO

/// Reads the `contact_link` rows (``BookSchema/v4``).
enum PostgresLinkRows {
    /// The unified contacts the identifiers name (their own identifier or a member's), each once, members in
    /// creation order.
    static func groups(
        _ connection: PostgresConnection, logger: Logger, book: String, containing identifiers: [String]
    ) async throws -> [LinkGroup] {
        guard !identifiers.isEmpty else { return [] }
        // The unified identifiers go through an array: as an `IN (subquery)` the planner hashed them and scanned every
        // link of the book for each page (12 ms at 100,000 contacts); an array is probed through the index.
        let rows = try await connection.rows(
            """
            SELECT l.unified_id, l.contact_id, l.preferred_for_name, l.preferred_for_image
            FROM contact_link l JOIN contact c ON c.book_id = l.book_id AND c.id = l.contact_id
            WHERE l.book_id = \(book) AND l.unified_id = ANY(ARRAY(
                SELECT k.unified_id FROM contact_link k WHERE k.book_id = \(book) AND k.unified_id = ANY(\(identifiers))
                UNION SELECT k.unified_id FROM contact_link k WHERE k.book_id = \(book) AND k.contact_id = ANY(\(identifiers))))
            ORDER BY l.unified_id, c.created_order
            """, logger: logger
        ).decode((String, String, Bool, Bool).self).array()
        return LinkGroup.assembled(rows)
    }
}

extension PostgresStore {
    /// The unified contacts the identifiers name, by their own identifier or a member's.
    public func linkGroups(containing identifiers: [String]) async throws -> [LinkGroup] {
        guard !identifiers.isEmpty else { return [] }
        let identifiers = identifiers.storable
        return try await read { connection in
            try await PostgresLinkRows.groups(connection, logger: logger, book: bookID, containing: identifiers)
        }
    }
}
