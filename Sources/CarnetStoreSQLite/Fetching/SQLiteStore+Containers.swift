import CarnetStore
import Foundation
import GRDB

extension SQLiteStore {
    static func decodeContainer(_ row: Row) -> Container {
        var container = Container(
            identifier: row["id"], name: row["name"], type: ContainerType(rawValue: row["type"]) ?? .unassigned)
        container.isDefault = row["isDefault"]
        container.revision = row["revision"]
        container.createdAt = Date(timeIntervalSince1970: row["createdAt"])
        container.modifiedAt = Date(timeIntervalSince1970: row["modifiedAt"])
        return container
    }

    private func fetchContainers(_ sql: String, _ arguments: StatementArguments = []) async throws -> [Container] {
        try await read { db in try Row.fetchAll(db, sql: sql, arguments: arguments).map(Self.decodeContainer) }
    }

    /// Every container, the default one first.
    public func containers() async throws -> [Container] {
        try await fetchContainers("SELECT * FROM container ORDER BY isDefault DESC, name, id")
    }

    /// Containers by identifier, leaving out identifiers that name none.
    public func containers(withIdentifiers identifiers: [String]) async throws -> [Container] {
        guard !identifiers.isEmpty else { return [] }
        return try await fetchContainers(
            "SELECT * FROM container WHERE id IN (\(databaseQuestionMarks(count: identifiers.count)))",
            StatementArguments(identifiers))
    }

    /// The container where contacts and groups go when a save names none.
    public func defaultContainer() async throws -> Container {
        // The first migration makes one and nothing removes it; a damaged file is a storage failure, not a trap.
        guard let container = try await fetchContainers("SELECT * FROM container WHERE isDefault").first else {
            throw StoreError(.storageFailure, "The store has no default container")
        }
        return container
    }

    /// The container of a contact (`predicateForContainerOfContact`). - Throws: `recordDoesNotExist`.
    public func container(ofContact identifier: String) async throws -> Container {
        guard
            let container = try await fetchContainers(
                "SELECT k.* FROM container k JOIN contact c ON c.containerRowid = k.rowid WHERE c.id = ?", [identifier]
            ).first
        else { throw StoreError(.recordDoesNotExist, "No such contact", affected: [identifier]) }
        return container
    }

    /// The container of a group. - Throws: `recordDoesNotExist`.
    public func container(ofGroup identifier: String) async throws -> Container {
        guard
            let container = try await fetchContainers(
                "SELECT k.* FROM container k JOIN \"group\" g ON g.containerRowid = k.rowid WHERE g.id = ?",
                [identifier]
            ).first
        else { throw StoreError(.recordDoesNotExist, "No such group", affected: [identifier]) }
        return container
    }

    /// Creates a container (an account). Containers are administrative, so this is not part of save requests.
    @discardableResult
    public func addContainer(_ container: Container) async throws -> Container {
        guard Validation.required(container.name, limit: StoreLimits.singleLineBytes) else {
            throw StoreError(.validationFailed, "Invalid container name", keyPaths: ["name"])
        }
        try await databaseWrite { db in
            let transaction = try SaveTransaction(db: db, author: nil)
            try transaction.ensureUnused(container.identifier)
            try db.execute(
                sql: """
                    INSERT INTO container (id, name, type, isDefault, revision, createdAt, modifiedAt)
                    VALUES (?, ?, ?, 0, ?, ?, ?)
                    """,
                arguments: [
                    container.identifier, container.name, container.type.rawValue, transaction.seq,
                    transaction.now, transaction.now,
                ])
        }
        return try await containers(withIdentifiers: [container.identifier])[0]
    }
}
