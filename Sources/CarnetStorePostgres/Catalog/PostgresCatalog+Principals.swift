import CarnetStore
import Foundation
import Logging
import PostgresNIO

extension PostgresCatalog {
    static let principalColumns = "id, name, kind, is_admin, created_at, disabled_at, default_book_id"
    typealias PrincipalRow = (String, String, String, Bool, Double, Double?, String?)

    static func principal(_ row: PrincipalRow) -> Principal {
        Principal(
            id: row.0, name: row.1, kind: Principal.Kind(rawValue: row.2) ?? .user, isAdmin: row.3,
            created: Date(timeIntervalSince1970: row.4), disabled: row.5.map(Date.init(timeIntervalSince1970:)),
            defaultBookID: row.6)
    }

    /// A new principal with a default book of its own, named "Contacts".
    /// - Throws: ``StoreError`` `insertedRecordAlreadyExists` when the name is taken, `validationFailed` for a
    ///   blank or overlong name.
    public func createPrincipal(name: String, kind: Principal.Kind, isAdmin: Bool) async throws -> Principal {
        let name = try CatalogNames.principalName(name)
        let logger = self.logger
        return try await database.write { connection in
            try await Self.insertPrincipal(connection, name: name, kind: kind, isAdmin: isAdmin, logger: logger)
        }
    }

    static func insertPrincipal(
        _ connection: PostgresConnection, name: String, kind: Principal.Kind, isAdmin: Bool, logger: Logger
    ) async throws -> Principal {
        let taken = try await connection.rows("SELECT 1 FROM principal WHERE name = \(name)", logger: logger)
            .collect()
        guard taken.isEmpty else {
            throw StoreError(.insertedRecordAlreadyExists, "A principal with that name exists.", keyPaths: ["name"])
        }
        var principal = Principal(
            id: try await newIdentifier(connection, logger: logger), name: name, kind: kind, isAdmin: isAdmin)
        try await connection.rows(
            """
            INSERT INTO principal (id, name, kind, is_admin, created_at)
            VALUES (\(principal.id), \(name), \(kind.rawValue), \(isAdmin), \(principal.created.timeIntervalSince1970))
            """, logger: logger)
        let book = try await insertBook(connection, name: "Contacts", ownerID: principal.id, logger: logger)
        try await connection.rows(
            "UPDATE principal SET default_book_id = \(book.id) WHERE id = \(principal.id)", logger: logger)
        principal.defaultBookID = book.id
        return principal
    }

    /// Every principal, oldest first.
    public func principals() async throws -> [Principal] {
        let logger = self.logger
        return try await database.read { connection in
            try await connection.rows(
                PostgresQuery(
                    unsafeSQL: "SELECT \(Self.principalColumns) FROM principal ORDER BY created_at, id COLLATE \"C\""),
                logger: logger
            ).decode(PrincipalRow.self).array().map(Self.principal)
        }
    }

    /// The principal with this id, or `nil`.
    public func principal(id: String) async throws -> Principal? {
        let id = id.storable
        let logger = self.logger
        return try await database.read { connection in
            try await Self.principal(connection, id: id, logger: logger)
        }
    }

    static func principal(_ connection: PostgresConnection, id: String, lock: Bool = false, logger: Logger)
        async throws -> Principal?
    {
        var query: PostgresQuery = "SELECT \(unescaped: principalColumns) FROM principal WHERE id = \(id)"
        if lock { query = "SELECT \(unescaped: principalColumns) FROM principal WHERE id = \(id) FOR UPDATE" }
        return try await connection.rows(query, logger: logger).decode(PrincipalRow.self).array().first
            .map(principal)
    }

    /// The principal with this name, or `nil`.
    public func principal(named name: String) async throws -> Principal? {
        let logger = self.logger
        return try await database.read { connection in
            for spelling in CatalogNames.principalSpellings(name).map(\.storable) {
                let found = try await connection.rows(
                    "SELECT \(unescaped: Self.principalColumns) FROM principal WHERE name = \(spelling)", logger: logger
                ).decode(PrincipalRow.self).array().first
                if let found { return Self.principal(found) }
            }
            return nil
        }
    }

    /// Disables or enables a principal; a disabled principal's tokens authenticate nothing.
    /// - Throws: `recordDoesNotExist` for an unknown id.
    public func setDisabled(_ disabled: Bool, principal id: String, at date: Date) async throws {
        let id = id.storable
        let logger = self.logger
        let when: Double? = disabled ? date.timeIntervalSince1970 : nil
        try await database.write { connection in
            let changed = try await connection.rows(
                "UPDATE principal SET disabled_at = \(when) WHERE id = \(id) RETURNING id", logger: logger
            ).collect()
            guard !changed.isEmpty else {
                throw StoreError(.recordDoesNotExist, "No principal has this id.", affected: [id])
            }
        }
    }

    /// Deletes a principal with its tokens, grants and the books it owns, their records with them, in one
    /// transaction; returns those books, so the caller ends their subscriptions. Their identifiers are never used
    /// again.
    public func deletePrincipal(id: String) async throws -> [AddressBook] {
        let id = id.storable
        let logger = self.logger
        return try await database.write { connection in
            guard try await Self.principal(connection, id: id, lock: true, logger: logger) != nil else {
                throw StoreError(.recordDoesNotExist, "No principal has this id.", affected: [id])
            }
            let first = try await connection.rows(
                "SELECT id FROM principal WHERE is_admin ORDER BY created_at, id COLLATE \"C\" LIMIT 1", logger: logger
            ).decode(String.self).array().first
            if first == id { throw CatalogNames.serviceAdminUndeletable(id) }
            let books = try await connection.rows(
                "SELECT \(unescaped: Self.bookColumns) FROM address_book WHERE owner_id = \(id)", logger: logger
            ).decode(BookRow.self).array().map(Self.book)
            for book in books { try await BookRecords.delete(connection, bookID: book.id, logger: logger) }
            try await Self.retire(connection, [id] + books.map(\.id), logger: logger)
            try await connection.rows("DELETE FROM principal WHERE id = \(id)", logger: logger)
            return books
        }
    }
}
