import CarnetStore
import Foundation
import Logging
import PostgresNIO

extension PostgresCatalog {
    /// Stores a new token for its ``AccessTokenRecord/principalID``. - Throws: `insertedRecordAlreadyExists` if
    /// the id is taken, `recordDoesNotExist` for an unknown principal or a book it may not open.
    public func insertAccessToken(_ token: AccessTokenRecord) async throws {
        try token.validate()
        let (principalID, books) = (token.principalID.storable, (token.bookIDs ?? []).storable)
        let logger = self.logger
        try await database.write { connection in
            guard try await Self.principal(connection, id: principalID, logger: logger) != nil else {
                throw StoreError(.recordDoesNotExist, "No principal has this id.", affected: [token.principalID])
            }
            for book in books
            where try await Self.access(connection, principalID: principalID, bookID: book, logger: logger) == nil {
                throw StoreError.noSuchBook(book)
            }
            let taken = try await connection.rows("SELECT 1 FROM access_token WHERE id = \(token.id)", logger: logger)
                .collect()
            guard taken.isEmpty else {
                throw StoreError(.insertedRecordAlreadyExists, "Access token \(token.id) already exists.")
            }
            try await Self.insert(token, connection, logger: logger)
        }
    }

    /// Inserts the token's row as it is: for a new token, and for a copy of another backend's catalog.
    static func insert(_ token: AccessTokenRecord, _ connection: PostgresConnection, logger: Logger) async throws {
        let authors = String(decoding: try JSONEncoder().encode(token.authors), as: UTF8.self)
        let books = try token.bookIDs.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try await connection.rows(
            """
            INSERT INTO access_token (id, principal_id, name, secret_hash, scopes, authors, book_ids, created_at,
                revoked_at)
            VALUES (\(token.id), \(token.principalID), \(token.name), \(Data(token.secretHash)),
                \(token.scopes.joined(separator: " ")), \(authors), \(books), \(token.created.timeIntervalSince1970),
                \(token.revoked?.timeIntervalSince1970))
            """, logger: logger)
    }

    /// The token with this id and its principal, revoked or not.
    public func accessToken(id: String) async throws -> (token: AccessTokenRecord, principal: Principal)? {
        let id = id.storable
        let logger = self.logger
        return try await database.read { connection in
            let rows = try await connection.rows(
                "SELECT \(unescaped: Self.tokenColumns) FROM access_token WHERE id = \(id)", logger: logger
            ).decode(TokenRow.self).array()
            guard let row = rows.first,
                let principal = try await Self.principal(connection, id: row.1, logger: logger)
            else { return nil }
            return (try Self.accessToken(row), principal)
        }
    }

    /// A principal's tokens (every principal's when `nil`), oldest first, revoked ones included.
    public func accessTokens(principalID: String?) async throws -> [AccessTokenRecord] {
        let principalID = principalID?.storable
        let logger = self.logger
        return try await database.read { connection in
            try await connection.rows(
                """
                SELECT \(unescaped: Self.tokenColumns) FROM access_token
                WHERE \(principalID)::text IS NULL OR principal_id = \(principalID) ORDER BY created_at, id COLLATE "C"
                """, logger: logger
            ).decode(TokenRow.self).array().map(Self.accessToken)
        }
    }

    /// Revokes a token, of `principalID` only when given. - Returns: `false` if no such live token exists.
    @discardableResult
    public func revokeAccessToken(id: String, principalID: String?, at date: Date) async throws -> Bool {
        let id = id.storable
        let principalID = principalID?.storable
        let logger = self.logger
        return try await database.write { connection in
            let revoked = try await connection.rows(
                """
                UPDATE access_token SET revoked_at = \(date.timeIntervalSince1970)
                WHERE id = \(id) AND revoked_at IS NULL AND (\(principalID)::text IS NULL OR principal_id = \(principalID))
                RETURNING id
                """, logger: logger
            ).collect()
            return !revoked.isEmpty
        }
    }

    static let tokenColumns =
        "id, principal_id, name, secret_hash, scopes, authors, book_ids, created_at, revoked_at"
    typealias TokenRow = (String, String, String, Data, String, String, String?, Double, Double?)

    static func accessToken(_ row: TokenRow) throws -> AccessTokenRecord {
        AccessTokenRecord(
            id: row.0, name: row.2, secretHash: [UInt8](row.3), scopes: row.4.split(separator: " ").map(String.init),
            authors: try JSONDecoder().decode([String].self, from: Data(row.5.utf8)),
            created: Date(timeIntervalSince1970: row.7), revoked: row.8.map(Date.init(timeIntervalSince1970:)),
            principalID: row.1,
            bookIDs: try row.6.map { try JSONDecoder().decode([String].self, from: Data($0.utf8)) })
    }
}
