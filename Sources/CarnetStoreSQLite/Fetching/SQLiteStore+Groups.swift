import CarnetStore
import Foundation
import GRDB

extension SQLiteStore {
    static let groupSelect = """
        SELECT g.id, g.name, k.id, g.revision, g.createdAt, g.modifiedAt
        FROM "group" g JOIN container k ON k.rowid = g.containerRowid
        """

    static func decodeGroup(_ row: Row) -> Group {
        var group = Group(identifier: row[0], name: row[1])
        group.containerIdentifier = row[2]
        group.revision = row[3]
        group.createdAt = Date(timeIntervalSince1970: row[4])
        group.modifiedAt = Date(timeIntervalSince1970: row[5])
        return group
    }

    /// All groups, or those of one container, by name.
    public func groups(inContainer container: String?) async throws -> [Group] {
        try await read { db in
            let filter = container == nil ? "" : "WHERE k.id = ?"
            return try Row.fetchAll(
                db, sql: "\(Self.groupSelect) \(filter) ORDER BY g.sortName, g.id",
                arguments: StatementArguments(container.map { [$0] } ?? [])
            ).map(Self.decodeGroup)
        }
    }

    /// Groups by identifier, in the order asked, leaving out identifiers that name no group.
    public func groups(withIdentifiers identifiers: [String]) async throws -> [Group] {
        guard !identifiers.isEmpty else { return [] }
        return try await read { db in
            let rows = try Row.fetchAll(
                db, sql: "\(Self.groupSelect) WHERE g.id IN (\(databaseQuestionMarks(count: identifiers.count)))",
                arguments: StatementArguments(identifiers))
            let byID = Dictionary(
                rows.map(Self.decodeGroup).map { ($0.identifier, $0) }, uniquingKeysWith: { a, _ in a })
            return identifiers.compactMap { byID[$0] }
        }
    }

    /// One group. - Throws: ``StoreError/Code/recordDoesNotExist``.
    public func group(withIdentifier identifier: String) async throws -> Group {
        guard let group = try await groups(withIdentifiers: [identifier]).first else {
            throw StoreError(.recordDoesNotExist, "No such group", affected: [identifier])
        }
        return group
    }

    /// The number of groups, in all containers or one.
    public func groupCount(inContainer container: String?) async throws -> Int {
        try await read { db in
            if let container {
                return try Int.fetchOne(
                    db,
                    sql:
                        "SELECT count(*) FROM \"group\" WHERE containerRowid = (SELECT rowid FROM container WHERE id = ?)",
                    arguments: [container]) ?? 0
            }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM \"group\"") ?? 0
        }
    }

    /// The groups each contact belongs to, by name, in one query for all of them.
    public func groups(ofContacts identifiers: [String]) async throws -> [String: [Group]] {
        guard !identifiers.isEmpty else { return [:] }
        return try await read { db in
            var result: [String: [Group]] = [:]
            for chunk in identifiers.chunked(500) {
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT g.id, g.name, k.id, g.revision, g.createdAt, g.modifiedAt, c.id
                        FROM contact c JOIN groupMember m ON m.contactRowid = c.rowid
                        JOIN "group" g ON g.rowid = m.groupRowid JOIN container k ON k.rowid = g.containerRowid
                        WHERE c.id IN (\(databaseQuestionMarks(count: chunk.count))) ORDER BY g.sortName, g.id
                        """, arguments: StatementArguments(chunk))
                for row in rows { result[row[6], default: []].append(Self.decodeGroup(row)) }
            }
            return result
        }
    }

    /// The members of several groups, each list in `sortOrder` and at most `limit` long, with two queries for
    /// all the groups.
    public func members(
        ofGroups identifiers: [String], keysToFetch keys: ContactKeySet, sortOrder: ContactSortOrder,
        limit: Int?
    ) async throws -> [String: [Contact]] {
        guard !identifiers.isEmpty else { return [:] }
        if let limit, !(1...StoreLimits.pageSize).contains(limit) {
            throw StoreError(.predicateInvalid, "Page sizes go from 1 to \(StoreLimits.pageSize)")
        }
        return try await read { db in
            let order = try Self.resolve(sortOrder, db)
            let orderBy = ContactQuery.sortColumn(order) + (order == .none ? "" : ", c.id")
            // A window numbers each group's members in order, so one query serves every group's first page.
            let pairs = try Row.fetchAll(
                db,
                sql: """
                    SELECT groupId, contactRowid FROM (
                        SELECT g.id AS groupId, c.rowid AS contactRowid,
                               row_number() OVER (PARTITION BY g.rowid ORDER BY \(orderBy)) AS position
                        FROM "group" g JOIN groupMember m ON m.groupRowid = g.rowid
                        JOIN contact c ON c.rowid = m.contactRowid
                        WHERE g.id IN (\(databaseQuestionMarks(count: identifiers.count)))
                    ) WHERE position <= ? ORDER BY groupId, position
                    """, arguments: StatementArguments(identifiers) + [limit ?? Int.max])
            let rowids = Array(Set(pairs.map { $0[1] as Int64 }))
            let contacts = try ContactLoader(keys: keys).load(db, rowids: rowids)
            let byRowid = Dictionary(uniqueKeysWithValues: contacts.map { ($0.rowid, $0.contact) })
            // A caller may name a group twice: one entry, never a trap.
            var result: [String: [Contact]] = Dictionary(identifiers.map { ($0, []) }, uniquingKeysWith: { a, _ in a })
            for pair in pairs {
                if let contact = byRowid[pair[1]] { result[pair[0], default: []].append(contact) }
            }
            return result
        }
    }

    /// How many members each group has, in one query.
    public func memberCounts(ofGroups identifiers: [String]) async throws -> [String: Int] {
        guard !identifiers.isEmpty else { return [:] }
        return try await read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT g.id, (SELECT count(*) FROM groupMember m WHERE m.groupRowid = g.rowid) FROM "group" g
                    WHERE g.id IN (\(databaseQuestionMarks(count: identifiers.count)))
                    """, arguments: StatementArguments(identifiers))
            return Dictionary(uniqueKeysWithValues: rows.map { ($0[0], $0[1]) })
        }
    }
}
