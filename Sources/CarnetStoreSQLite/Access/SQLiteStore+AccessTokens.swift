import CarnetStore
import Foundation
import GRDB

extension SQLiteStore {
    /// Stores a new access token. - Throws: ``StoreError`` `insertedRecordAlreadyExists` if the id is taken.
    public func insertAccessToken(_ token: AccessTokenRecord) async throws {
        let authors = String(decoding: try JSONEncoder().encode(token.authors), as: UTF8.self)
        try await databaseWrite { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM accessToken WHERE id = ?", arguments: [token.id]) == true {
                throw StoreError(
                    .insertedRecordAlreadyExists, "Access token \(token.id) already exists",
                    affected: [token.id])
            }
            try db.execute(
                sql: """
                    INSERT INTO accessToken (id, name, secretHash, scopes, authors, createdAt, revokedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    token.id, token.name, Data(token.secretHash), token.scopes.joined(separator: " "), authors,
                    token.created.timeIntervalSince1970, token.revoked?.timeIntervalSince1970,
                ])
        }
    }

    /// The token with this id, revoked or not.
    public func accessToken(id: String) async throws -> AccessTokenRecord? {
        try await read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM accessToken WHERE id = ?", arguments: [id]).map(Self.accessToken)
        }
    }

    /// Every token, oldest first, revoked ones included.
    public func accessTokens() async throws -> [AccessTokenRecord] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM accessToken ORDER BY createdAt, id").map(Self.accessToken)
        }
    }

    /// Revokes a token. - Returns: `false` if no live token has this id.
    @discardableResult
    public func revokeAccessToken(id: String, at date: Date = Date()) async throws -> Bool {
        try await databaseWrite { db in
            try db.execute(
                sql: "UPDATE accessToken SET revokedAt = ? WHERE id = ? AND revokedAt IS NULL",
                arguments: [date.timeIntervalSince1970, id])
            return db.changesCount > 0
        }
    }

    private static func accessToken(_ row: Row) throws -> AccessTokenRecord {
        let authorsText: String = row["authors"]
        let scopes: String = row["scopes"]
        let hash: Data = row["secretHash"]
        let revoked: Double? = row["revokedAt"]
        return AccessTokenRecord(
            id: row["id"], name: row["name"], secretHash: [UInt8](hash),
            scopes: scopes.split(separator: " ").map(String.init),
            authors: try JSONDecoder().decode([String].self, from: Data(authorsText.utf8)),
            created: Date(timeIntervalSince1970: row["createdAt"]),
            revoked: revoked.map(Date.init(timeIntervalSince1970:)))
    }
}
