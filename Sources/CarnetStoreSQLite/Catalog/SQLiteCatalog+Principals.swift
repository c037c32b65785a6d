import CarnetStore
import Foundation
import GRDB

extension SQLiteCatalog {
    static let principalColumns = "id, name, kind, isAdmin, createdAt, disabledAt, defaultBookId"
    /// ``principalColumns`` of a table aliased `p`.
    static let principalColumnsP = "p.id, p.name, p.kind, p.isAdmin, p.createdAt, p.disabledAt, p.defaultBookId"

    /// Decodes ``principalColumns`` starting at column `offset`.
    static func principal(_ row: Row, at offset: Int) -> Principal {
        let disabled: Double? = row[offset + 5]
        return Principal(
            id: row[offset], name: row[offset + 1], kind: Principal.Kind(rawValue: row[offset + 2]) ?? .user,
            isAdmin: row[offset + 3], created: Date(timeIntervalSince1970: row[offset + 4]),
            disabled: disabled.map(Date.init(timeIntervalSince1970:)), defaultBookID: row[offset + 6])
    }

    static func principal(_ row: Row) -> Principal { principal(row, at: 0) }

    /// A new principal with a default book of its own, named "Contacts".
    /// - Throws: ``StoreError`` `insertedRecordAlreadyExists` when the name is taken, `validationFailed` for a
    ///   blank or overlong name.
    public func createPrincipal(name: String, kind: Principal.Kind, isAdmin: Bool) async throws
        -> Principal
    {
        let name = try CatalogNames.principalName(name)
        return try await write { db in try Self.insertPrincipal(db, name: name, kind: kind, isAdmin: isAdmin) }
    }

    static func insertPrincipal(
        _ db: Database, name: String, kind: Principal.Kind, isAdmin: Bool, defaultBookFile: String? = nil
    ) throws -> Principal {
        if try Bool.fetchOne(db, sql: "SELECT 1 FROM principal WHERE name = ?", arguments: [name]) == true {
            throw StoreError(.insertedRecordAlreadyExists, "A principal with that name exists.", keyPaths: ["name"])
        }
        var principal = Principal(id: try newIdentifier(db), name: name, kind: kind, isAdmin: isAdmin)
        try db.execute(
            sql: "INSERT INTO principal (id, name, kind, isAdmin, createdAt) VALUES (?, ?, ?, ?, ?)",
            arguments: [
                principal.id, name, kind.rawValue, isAdmin, principal.created.timeIntervalSince1970,
            ])
        let book = try insertBook(db, name: "Contacts", ownerID: principal.id, fileName: defaultBookFile)
        try db.execute(
            sql: "UPDATE principal SET defaultBookId = ? WHERE id = ?", arguments: [book.id, principal.id])
        principal.defaultBookID = book.id
        return principal
    }

    /// Every principal, oldest first.
    public func principals() async throws -> [Principal] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.principalColumns) FROM principal ORDER BY createdAt, id")
                .map(Self.principal)
        }
    }

    /// The principal with this id, or `nil`.
    public func principal(id: String) async throws -> Principal? {
        try await read { db in try Self.principal(db, id: id) }
    }

    static func principal(_ db: Database, id: String) throws -> Principal? {
        try Row.fetchOne(db, sql: "SELECT \(principalColumns) FROM principal WHERE id = ?", arguments: [id])
            .map(principal)
    }

    /// The principal with this name, or `nil`.
    public func principal(named name: String) async throws -> Principal? {
        try await read { db in
            for spelling in CatalogNames.principalSpellings(name) {
                let sql = "SELECT \(Self.principalColumns) FROM principal WHERE name = ?"
                if let row = try Row.fetchOne(db, sql: sql, arguments: [spelling]) { return Self.principal(row) }
            }
            return nil
        }
    }

    /// Disables or enables a principal; a disabled principal's tokens authenticate nothing.
    /// - Throws: `recordDoesNotExist` for an unknown id.
    public func setDisabled(_ disabled: Bool, principal id: String, at date: Date) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE principal SET disabledAt = ? WHERE id = ?",
                arguments: [disabled ? date.timeIntervalSince1970 : nil, id])
            guard db.changesCount > 0 else {
                throw StoreError(.recordDoesNotExist, "No principal has this id.", affected: [id])
            }
        }
    }

    /// Deletes a principal with its tokens, grants and the books it owns; returns those books, whose files the
    /// caller deletes (``BookStores/delete(_:)``). Their identifiers are never used again.
    public func deletePrincipal(id: String) async throws -> [AddressBook] {
        try await write { db in
            guard try Self.principal(db, id: id) != nil else {
                throw StoreError(.recordDoesNotExist, "No principal has this id.", affected: [id])
            }
            let first = "SELECT id FROM principal WHERE isAdmin ORDER BY createdAt, id LIMIT 1"
            if try String.fetchOne(db, sql: first) == id { throw CatalogNames.serviceAdminUndeletable(id) }
            let books = try Row.fetchAll(
                db, sql: "SELECT \(Self.bookColumns) FROM addressBook WHERE ownerId = ?", arguments: [id]
            ).map(Self.book)
            try Self.retire(db, [id] + books.map(\.id))
            try db.execute(sql: "DELETE FROM principal WHERE id = ?", arguments: [id])
            return books
        }
    }
}
