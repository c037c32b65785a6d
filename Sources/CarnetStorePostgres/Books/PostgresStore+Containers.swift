import CarnetStore
import Foundation
import PostgresNIO

extension PostgresStore {
    typealias ContainerRow = (String, String, Int16, Bool, Int64, Double, Double)
    static let containerColumns = "k.id, k.name, k.type, k.is_default, k.revision, k.created_at, k.modified_at"

    static func container(_ row: ContainerRow) -> Container {
        var container = Container(
            identifier: row.0, name: row.1, type: ContainerType(rawValue: Int(row.2)) ?? .unassigned)
        container.isDefault = row.3
        container.revision = row.4
        container.createdAt = Date(timeIntervalSince1970: row.5)
        container.modifiedAt = Date(timeIntervalSince1970: row.6)
        return container
    }

    private func fetchContainers(_ condition: String, _ sql: SQLBuilder = SQLBuilder(), order: String = "")
        async throws -> [Container]
    {
        var sql = sql
        let text = """
            SELECT \(Self.containerColumns) FROM container k
            WHERE k.book_id = \(try sql.bind(bookID)) \(condition) \(order)
            """
        return try await read { connection in
            try await connection.rows(sql.query(text), logger: logger).decode(ContainerRow.self).array()
                .map(Self.container)
        }
    }

    public func containers() async throws -> [Container] {
        try await fetchContainers("", order: "ORDER BY k.is_default DESC, k.name, k.id")
    }

    public func containers(withIdentifiers identifiers: [String]) async throws -> [Container] {
        guard !identifiers.isEmpty else { return [] }
        var sql = SQLBuilder()
        let condition = "AND k.id = ANY(\(try sql.bind(identifiers.storable)))"
        return try await fetchContainers(condition, sql)
    }

    public func defaultContainer() async throws -> Container {
        // Every book has one from its creation to its deletion: none means the book was deleted (by another
        // instance, whose deletion this one's catalog checks notice within their cache's life).
        guard let container = try await fetchContainers("AND k.is_default").first else {
            throw StoreError.noSuchBook(bookID)
        }
        return container
    }

    public func container(ofContact identifier: String) async throws -> Container {
        var sql = SQLBuilder()
        let condition =
            "AND k.id = (SELECT container_id FROM contact WHERE book_id = k.book_id AND id = \(try sql.bind(identifier.storable)))"
        guard let container = try await fetchContainers(condition, sql).first else {
            throw StoreError(.recordDoesNotExist, "No such contact", affected: [identifier])
        }
        return container
    }

    public func container(ofGroup identifier: String) async throws -> Container {
        var sql = SQLBuilder()
        let condition =
            "AND k.id = (SELECT container_id FROM contact_group WHERE book_id = k.book_id AND id = \(try sql.bind(identifier.storable)))"
        guard let container = try await fetchContainers(condition, sql).first else {
            throw StoreError(.recordDoesNotExist, "No such group", affected: [identifier])
        }
        return container
    }

    /// Creates a container (an account). Containers are administrative, so this is not part of save requests.
    @discardableResult
    public func addContainer(_ container: Container) async throws -> Container {
        guard Validation.required(container.name, limit: StoreLimits.singleLineBytes) else {
            throw StoreError(.validationFailed, "Invalid container name", keyPaths: ["name"])
        }
        let (bookID, logger) = (bookID, logger)
        try await database.write { connection in
            let transaction = try await PostgresSaveTransaction.begin(
                connection, bookID: bookID, author: nil, operations: 1, logger: logger)
            try await transaction.ensureUnused(container.identifier)
            try await connection.rows(
                """
                INSERT INTO container (book_id, id, name, type, is_default, revision, created_at, modified_at)
                VALUES (\(bookID), \(container.identifier), \(container.name), \(Int16(container.type.rawValue)),
                    false, \(transaction.seq), \(transaction.now), \(transaction.now))
                """, logger: logger)
        }
        return try await containers(withIdentifiers: [container.identifier])[0]
    }
}
