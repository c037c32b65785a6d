import CarnetStore
import Foundation
import GRDB

extension SQLiteCatalog {
    /// Stores a new token for its ``AccessTokenRecord/principalID``. - Throws: `insertedRecordAlreadyExists` if
    /// the id is taken, `recordDoesNotExist` for an unknown principal or a book it may not open.
    public func insertAccessToken(_ token: AccessTokenRecord) async throws {
        try token.validate()
        let authors = String(decoding: try JSONEncoder().encode(token.authors), as: UTF8.self)
        let books = try token.bookIDs.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try await write { db in
            guard try Self.principal(db, id: token.principalID) != nil else {
                throw StoreError(.recordDoesNotExist, "No principal has this id.", affected: [token.principalID])
            }
            for book in token.bookIDs ?? []
            where try Self.access(db, principalID: token.principalID, bookID: book) == nil {
                throw StoreError.noSuchBook(book)
            }
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM accessToken WHERE id = ?", arguments: [token.id]) == true {
                throw StoreError(.insertedRecordAlreadyExists, "Access token \(token.id) already exists.")
            }
            try db.execute(
                sql: """
                    INSERT INTO accessToken (id, principalId, name, secretHash, scopes, authors, bookIds, createdAt, revokedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    token.id, token.principalID, token.name, Data(token.secretHash),
                    token.scopes.joined(separator: " "),
                    authors, books, token.created.timeIntervalSince1970, token.revoked?.timeIntervalSince1970,
                ])
        }
    }

    /// The token with this id and its principal, revoked or not.
    public func accessToken(id: String) async throws -> (token: AccessTokenRecord, principal: Principal)? {
        try await read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT \(Self.tokenColumns) FROM accessToken WHERE id = ?", arguments: [id]),
                let principal = try Self.principal(db, id: row[1])
            else { return nil }
            return (try Self.accessToken(row), principal)
        }
    }

    /// A principal's tokens (every principal's when `nil`), oldest first, revoked ones included.
    public func accessTokens(principalID: String?) async throws -> [AccessTokenRecord] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.tokenColumns) FROM accessToken WHERE ?1 IS NULL OR principalId = ?1
                    ORDER BY createdAt, id
                    """, arguments: [principalID]
            ).map(Self.accessToken)
        }
    }

    /// Revokes a token, of `principalID` only when given. - Returns: `false` if no such live token exists.
    @discardableResult
    public func revokeAccessToken(id: String, principalID: String?, at date: Date) async throws -> Bool {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE accessToken SET revokedAt = ?1 WHERE id = ?2 AND revokedAt IS NULL
                    AND (?3 IS NULL OR principalId = ?3)
                    """, arguments: [date.timeIntervalSince1970, id, principalID])
            return db.changesCount > 0
        }
    }

    static let tokenColumns = "id, principalId, name, secretHash, scopes, authors, bookIds, createdAt, revokedAt"

    static func accessToken(_ row: Row) throws -> AccessTokenRecord {
        let authors: String = row[5]
        let scopes: String = row[4]
        let hash: Data = row[3]
        let books: String? = row[6]
        let revoked: Double? = row[8]
        return AccessTokenRecord(
            id: row[0], name: row[2], secretHash: [UInt8](hash), scopes: scopes.split(separator: " ").map(String.init),
            authors: try JSONDecoder().decode([String].self, from: Data(authors.utf8)),
            created: Date(timeIntervalSince1970: row[7]), revoked: revoked.map(Date.init(timeIntervalSince1970:)),
            principalID: row[1],
            bookIDs: try books.map { try JSONDecoder().decode([String].self, from: Data($0.utf8)) })
    }
}
