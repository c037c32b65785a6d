import CarnetStore
import Foundation
import GRDB

extension SQLiteCatalog {
    /// Grants `principalID` `read` or `readWrite` on a book the caller owns (replacing an earlier grant).
    public func share(bookID: String, with principalID: String, access: BookAccess, by ownerID: String) async throws {
        guard access != .owner else {
            throw StoreError(.validationFailed, "A book is shared read or readWrite.", keyPaths: ["access"])
        }
        try await write { db in
            _ = try Self.owned(db, bookID: bookID, by: ownerID)
            guard principalID != ownerID, try Self.principal(db, id: principalID) != nil else {
                throw StoreError(.recordDoesNotExist, "No other principal has this id.", affected: [principalID])
            }
            try db.execute(
                sql: """
                    INSERT INTO bookGrant (bookId, principalId, access, grantedAt) VALUES (?, ?, ?, ?)
                    ON CONFLICT (bookId, principalId) DO UPDATE SET access = excluded.access
                    """, arguments: [bookID, principalID, access.rawValue, Date().timeIntervalSince1970])
        }
    }

    /// Withdraws a grant. - Returns: `false` when there was none.
    @discardableResult
    public func unshare(bookID: String, with principalID: String, by ownerID: String) async throws -> Bool {
        try await write { db in
            _ = try Self.owned(db, bookID: bookID, by: ownerID)
            try db.execute(
                sql: "DELETE FROM bookGrant WHERE bookId = ? AND principalId = ?", arguments: [bookID, principalID])
            return db.changesCount > 0
        }
    }

    /// Who a book is shared with, and how.
    public func grants(bookID: String, by ownerID: String) async throws -> [(principal: Principal, access: BookAccess)]
    {
        try await read { db in
            _ = try Self.owned(db, bookID: bookID, by: ownerID)
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT g.access, \(Self.principalColumnsP)
                    FROM bookGrant g JOIN principal p ON p.id = g.principalId WHERE g.bookId = ? ORDER BY p.name
                    """, arguments: [bookID])
            return rows.compactMap { row in
                BookAccess(rawValue: row[0]).map { (Self.principal(row, at: 1), $0) }
            }
        }
    }
}
