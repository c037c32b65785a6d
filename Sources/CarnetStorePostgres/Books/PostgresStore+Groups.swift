import CarnetStore
import Foundation
import PostgresNIO

extension PostgresStore {
    typealias GroupRow = (String, String, String, Int64, Double, Double)
    static let groupColumns = "g.id, g.name, g.container_id, g.revision, g.created_at, g.modified_at"

    static func group(_ row: GroupRow) -> Group {
        var group = Group(identifier: row.0, name: row.1)
        group.containerIdentifier = row.2
        group.revision = row.3
        group.createdAt = Date(timeIntervalSince1970: row.4)
        group.modifiedAt = Date(timeIntervalSince1970: row.5)
        return group
    }

    /// Groups by identifier, in the order asked, leaving out identifiers that name none.
    static func groups(_ connection: PostgresConnection, store: PostgresStore, identifiers: [String]) async throws
        -> [Group]
    {
        guard !identifiers.isEmpty else { return [] }
        let rows = try await connection.rows(
            """
            SELECT \(unescaped: groupColumns) FROM contact_group g
            WHERE g.book_id = \(store.bookID) AND g.id = ANY(\(identifiers.storable))
            """, logger: store.logger
        ).decode(GroupRow.self).array()
        let byID = Dictionary(rows.map(group).map { ($0.identifier, $0) }, uniquingKeysWith: { a, _ in a })
        return identifiers.compactMap { byID[$0] }
    }

    public func groups(inContainer container: String?) async throws -> [Group] {
        try await read { connection in
            try await connection.rows(
                """
                SELECT \(unescaped: Self.groupColumns) FROM contact_group g
                WHERE g.book_id = \(bookID) AND (\(container?.storable)::text IS NULL OR g.container_id = \(container?.storable))
                ORDER BY g.sort_name, g.id
                """, logger: logger
            ).decode(GroupRow.self).array().map(Self.group)
        }
    }

    public func groups(withIdentifiers identifiers: [String]) async throws -> [Group] {
        try await read { connection in try await Self.groups(connection, store: self, identifiers: identifiers) }
    }

    public func group(withIdentifier identifier: String) async throws -> Group {
        guard let group = try await groups(withIdentifiers: [identifier]).first else {
            throw StoreError(.recordDoesNotExist, "No such group", affected: [identifier])
        }
        return group
    }

    public func groupCount(inContainer container: String?) async throws -> Int {
        try await read { connection in
            Int(
                try await connection.rows(
                    """
                    SELECT count(*)::bigint FROM contact_group
                    WHERE book_id = \(bookID) AND (\(container?.storable)::text IS NULL OR container_id = \(container?.storable))
                    """, logger: logger
                ).decode(Int64.self).array().first ?? 0)
        }
    }

    public func groups(ofContacts identifiers: [String]) async throws -> [String: [Group]] {
        guard !identifiers.isEmpty else { return [:] }
        return try await read { connection in
            let rows = try await connection.rows(
                """
                SELECT \(unescaped: Self.groupColumns), m.contact_id FROM group_member m
                JOIN contact_group g ON g.book_id = m.book_id AND g.id = m.group_id
                WHERE m.book_id = \(bookID) AND m.contact_id = ANY(\(identifiers.storable)) ORDER BY g.sort_name, g.id
                """, logger: logger
            ).decode((String, String, String, Int64, Double, Double, String).self).array()
            var result: [String: [Group]] = [:]
            for row in rows {
                result[row.6, default: []].append(Self.group((row.0, row.1, row.2, row.3, row.4, row.5)))
            }
            return result
        }
    }

    public func members(
        ofGroups identifiers: [String], keysToFetch keys: ContactKeySet, sortOrder: ContactSortOrder, limit: Int?
    ) async throws -> [String: [Contact]] {
        guard !identifiers.isEmpty else { return [:] }
        if let limit, !(1...StoreLimits.pageSize).contains(limit) {
            throw StoreError(.predicateInvalid, "Page sizes go from 1 to \(StoreLimits.pageSize)")
        }
        return try await read { connection in
            let order = try await Self.resolve(sortOrder, connection, store: self)
            let column = PostgresContactFetch.sortColumn(order)
            let orderBy = order == .none ? column : "\(column), c.id"
            // A window numbers each group's members in order, so one query serves every group's first page.
            let pairs = try await connection.rows(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT group_id, contact_id FROM (
                            SELECT m.group_id, m.contact_id,
                                row_number() OVER (PARTITION BY m.group_id ORDER BY \(orderBy)) AS position
                            FROM group_member m JOIN contact c ON c.book_id = m.book_id AND c.id = m.contact_id
                            WHERE m.book_id = $1 AND m.group_id = ANY($2)
                        ) ranked WHERE position <= $3 ORDER BY group_id, position
                        """, binds: try Self.binds(bookID, identifiers.storable, Int64(limit ?? Int(Int32.max)))),
                logger: logger
            ).decode((String, String).self).array()
            let contacts = try await PostgresContactLoader(keys: keys).load(
                connection, store: self, identifiers: pairs.map(\.1))
            let byID = Dictionary(contacts.map { ($0.identifier, $0) }, uniquingKeysWith: { a, _ in a })
            var result: [String: [Contact]] = Dictionary(identifiers.map { ($0, []) }, uniquingKeysWith: { a, _ in a })
            for (group, contact) in pairs {
                if let found = byID[contact] { result[group, default: []].append(found) }
            }
            return result
        }
    }

    public func memberCounts(ofGroups identifiers: [String]) async throws -> [String: Int] {
        guard !identifiers.isEmpty else { return [:] }
        return try await read { connection in
            let rows = try await connection.rows(
                """
                SELECT g.id, (SELECT count(*) FROM group_member m WHERE m.book_id = g.book_id AND m.group_id = g.id)::bigint
                FROM contact_group g WHERE g.book_id = \(bookID) AND g.id = ANY(\(identifiers.storable))
                """, logger: logger
            ).decode((String, Int64).self).array()
            return Dictionary(rows.map { ($0.0, Int($0.1)) }, uniquingKeysWith: { a, _ in a })
        }
    }

    static func binds(_ book: String, _ identifiers: [String], _ limit: Int64) throws -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(book)
        bindings.append(identifiers)
        bindings.append(limit)
        return bindings
    }
}
