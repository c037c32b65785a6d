import CarnetStore
import Foundation
import PostgresNIO

extension PostgresCatalog {
    /// Grants `principalID` `read` or `readWrite` on a book the caller owns (replacing an earlier grant).
    public func share(bookID: String, with principalID: String, access: BookAccess, by ownerID: String) async throws {
        let bookID = bookID.storable
        let principalID = principalID.storable
        let ownerID = ownerID.storable
        guard access != .owner else {
            throw StoreError(.validationFailed, "A book is shared read or readWrite.", keyPaths: ["access"])
        }
        let logger = self.logger
        try await database.write { connection in
            _ = try await Self.owned(connection, bookID: bookID, by: ownerID, logger: logger)
            guard principalID != ownerID, try await Self.principal(connection, id: principalID, logger: logger) != nil
            else {
                throw StoreError(.recordDoesNotExist, "No other principal has this id.", affected: [principalID])
            }
            try await connection.rows(
                """
                INSERT INTO book_grant (book_id, principal_id, access, granted_at)
                VALUES (\(bookID), \(principalID), \(access.rawValue), \(Date().timeIntervalSince1970))
                ON CONFLICT (book_id, principal_id) DO UPDATE SET access = excluded.access
                """, logger: logger)
        }
    }

    /// Withdraws a grant. - Returns: `false` when there was none.
    @discardableResult
    public func unshare(bookID: String, with principalID: String, by ownerID: String) async throws -> Bool {
        let bookID = bookID.storable
        let principalID = principalID.storable
        let ownerID = ownerID.storable
        let logger = self.logger
        return try await database.write { connection in
            _ = try await Self.owned(connection, bookID: bookID, by: ownerID, logger: logger)
            let removed = try await connection.rows(
                """
                DELETE FROM book_grant WHERE book_id = \(bookID) AND principal_id = \(principalID) RETURNING book_id
                """, logger: logger
            ).collect()
            return !removed.isEmpty
        }
    }

    /// Who a book is shared with, and how.
    public func grants(bookID: String, by ownerID: String) async throws -> [(principal: Principal, access: BookAccess)]
    {
        let bookID = bookID.storable
        let ownerID = ownerID.storable
        let logger = self.logger
        return try await database.read { connection in
            _ = try await Self.owned(connection, bookID: bookID, by: ownerID, logger: logger)
            let rows = try await connection.rows(
                """
                SELECT g.access, p.id, p.name, p.kind, p.is_admin, p.created_at, p.disabled_at, p.default_book_id
                FROM book_grant g JOIN principal p ON p.id = g.principal_id WHERE g.book_id = \(bookID)
                ORDER BY p.name COLLATE "C"
                """, logger: logger
            ).decode((String, String, String, String, Bool, Double, Double?, String?).self).array()
            return rows.compactMap { row in
                BookAccess(rawValue: row.0).map {
                    (Self.principal((row.1, row.2, row.3, row.4, row.5, row.6, row.7)), $0)
                }
            }
        }
    }
}
