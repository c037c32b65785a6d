import CarnetStore
import Foundation
import GRDB

/// The queries that read a book for its archive, each a batch after a key (`nil`: from the start), returning the
/// batch and the key its last row ends at.
enum ArchiveReader {
    static let batch = SQLiteStore.archiveBatch

    static func header(_ db: Database) throws -> BookArchiveHeader {
        var info: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM storeInfo") { info[row[0]] = row[1] }
        guard let storeID = info["storeId"] else {
            throw StoreError(.storageFailure, "The database has no store identifier.")
        }
        let lastRevision =
            try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'saveTransaction'") ?? 0
        return BookArchiveHeader(
            storeID: storeID, lastRevision: lastRevision, lastPosition: try HistoryStore.currentPosition(db),
            oldestPosition: try HistoryStore.oldestPosition(db),
            oldestMark: info["oldestMark"].flatMap { UInt64($0, radix: 16) },
            userDefaultSortOrder: info["userDefaultSortOrder"])
    }

    static func containers(_ db: Database) throws -> [Container] {
        try Row.fetchAll(
            db, sql: "SELECT id, name, type, isDefault, revision, createdAt, modifiedAt FROM container ORDER BY rowid"
        ).map { row in
            var container = Container(
                identifier: row[0], name: row[1], type: ContainerType(rawValue: row[2]) ?? .local)
            container.isDefault = row[3]
            container.revision = row[4]
            container.createdAt = Date(timeIntervalSince1970: row[5])
            container.modifiedAt = Date(timeIntervalSince1970: row[6])
            return container
        }
    }

    static let contactColumns =
        (["c.rowid", "c.id", "k.id", "c.contactType"] + ContactKey.stringKeys.map { "c.\($0.rawValue)" } + [
            "c.birthday", "c.nonGregorianBirthday", "i.imageData", "i.thumbnailImageData", "c.createdRevision",
            "c.revision", "c.createdAt", "c.modifiedAt",
        ]).joined(separator: ", ")

    /// Contacts by creation order (their rowid, which a snapshot token continues from), with their key revisions
    /// and labeled values.
    static func contacts(_ db: Database, after: Int64?) throws -> ([ArchivedContact], Int64?) {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT \(contactColumns) FROM contact c JOIN container k ON k.rowid = c.containerRowid
                LEFT JOIN contactImage i ON i.contactRowid = c.rowid
                WHERE c.rowid > ? ORDER BY c.rowid LIMIT \(batch)
                """, arguments: [after ?? 0])
        guard let first = rows.first, let last = rows.last else { return ([], nil) }
        let range: [Int64] = [first[0], last[0]]
        var keyRevisions: [Int64: [String: Int64]] = [:]
        for row in try Row.fetchAll(
            db, sql: "SELECT contactRowid, key, revision FROM contactKeyRevision WHERE contactRowid BETWEEN ? AND ?",
            arguments: StatementArguments(range))
        {
            keyRevisions[row[0], default: [:]][row[1]] = row[2]
        }
        var values: [Int64: [ArchivedLabeledValue]] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT contactRowid, id, kind, position, label, value, createdRevision, revision FROM labeledValue
                WHERE contactRowid BETWEEN ? AND ? ORDER BY contactRowid, kind, position
                """, arguments: StatementArguments(range))
        {
            values[row[0], default: []].append(
                ArchivedLabeledValue(
                    identifier: row[1], kind: row[2], position: row[3], label: row[4], value: row[5],
                    createdRevision: row[6], revision: row[7]))
        }
        let strings = ContactKey.stringKeys.count
        let contacts = rows.map { row -> ArchivedContact in
            let rowid: Int64 = row[0]
            let rest = 4 + strings
            return ArchivedContact(
                identifier: row[1], containerID: row[2], contactType: row[3],
                strings: (0..<strings).map { row[4 + $0] }, birthday: row[rest], nonGregorianBirthday: row[rest + 1],
                imageData: row[rest + 2], thumbnailImageData: row[rest + 3], createdOrder: rowid,
                createdRevision: row[rest + 4], revision: row[rest + 5], createdAt: row[rest + 6],
                modifiedAt: row[rest + 7], keyRevisions: keyRevisions[rowid] ?? [:], labeledValues: values[rowid] ?? [])
        }
        return (contacts, last[0])
    }

    static func groups(_ db: Database, after: Int64?) throws -> ([ArchivedGroup], Int64?) {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT g.rowid, g.id, k.id, g.name, g.createdRevision, g.nameRevision, g.revision, g.createdAt,
                    g.modifiedAt
                FROM "group" g JOIN container k ON k.rowid = g.containerRowid
                WHERE g.rowid > ? ORDER BY g.rowid LIMIT \(batch)
                """, arguments: [after ?? 0])
        let groups = rows.map { row in
            ArchivedGroup(
                identifier: row[1], containerID: row[2], name: row[3], createdOrder: row[0], createdRevision: row[4],
                nameRevision: row[5], revision: row[6], createdAt: row[7], modifiedAt: row[8])
        }
        return (groups, rows.last.map { $0[0] })
    }

    struct MemberKey: Sendable {
        var group: Int64
        var contact: Int64
    }

    static func memberships(_ db: Database, after: MemberKey?) throws -> ([ArchivedMembership], MemberKey?) {
        let after = after ?? MemberKey(group: 0, contact: 0)
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT m.groupRowid, m.contactRowid, g.id, c.id FROM groupMember m
                JOIN "group" g ON g.rowid = m.groupRowid JOIN contact c ON c.rowid = m.contactRowid
                WHERE m.groupRowid >= ?1 AND (m.groupRowid, m.contactRowid) > (?1, ?2)
                ORDER BY m.groupRowid, m.contactRowid LIMIT \(batch)
                """, arguments: [after.group, after.contact])
        return (
            rows.map { ArchivedMembership(groupID: $0[2], contactID: $0[3]) },
            rows.last.map { MemberKey(group: $0[0], contact: $0[1]) }
        )
    }

    /// Unified contacts, whole, in order of their identifiers.
    static func links(_ db: Database, after: String?) throws -> ([LinkGroup], String?) {
        let identifiers = try String.fetchAll(
            db,
            sql: "SELECT DISTINCT unifiedId FROM contactLink WHERE unifiedId > ? ORDER BY unifiedId LIMIT \(batch)",
            arguments: [after ?? ""])
        let groups = try LinkRows.groups(db, containing: identifiers).sorted { $0.identifier < $1.identifier }
        return (groups, identifiers.last)
    }

    struct VersionKey: Sendable {
        var value: String
        var revision: Int64
    }

    static func valueVersions(_ db: Database, after: VersionKey?) throws -> ([ArchivedValueVersion], VersionKey?) {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT valueId, supersededRevision, label, value FROM labeledValueVersion
                WHERE (valueId, supersededRevision) > (?, ?) ORDER BY valueId, supersededRevision LIMIT \(batch)
                """, arguments: [after?.value ?? "", after?.revision ?? Int64.min])
        return (
            rows.map { ArchivedValueVersion(valueID: $0[0], supersededRevision: $0[1], label: $0[2], value: $0[3]) },
            rows.last.map { VersionKey(value: $0[0], revision: $0[1]) }
        )
    }

    static func retired(_ db: Database, after: String?) throws -> ([ArchivedRetiredIdentifier], String?) {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT id, kind, ownerId, revision FROM retiredIdentifier WHERE id > ? ORDER BY id LIMIT \(batch)
                """, arguments: [after ?? ""])
        return (
            rows.map { ArchivedRetiredIdentifier(identifier: $0[0], kind: $0[1], ownerID: $0[2], revision: $0[3]) },
            rows.last.map { $0[0] }
        )
    }

    static func transactions(_ db: Database, after: Int64?) throws -> ([ArchivedTransaction], Int64?) {
        let rows = try Row.fetchAll(
            db,
            sql: "SELECT seq, author, timestamp FROM saveTransaction WHERE seq > ? ORDER BY seq LIMIT \(batch)",
            arguments: [after ?? 0])
        return (
            rows.map { ArchivedTransaction(revision: $0[0], author: $0[1], timestamp: $0[2]) }, rows.last.map { $0[0] }
        )
    }

    static func events(_ db: Database, after: Int64?) throws -> ([ArchivedEvent], Int64?) {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT position, seq, kind, recordId, otherId, changedKeys FROM changeEvent
                WHERE position > ? ORDER BY position LIMIT \(batch)
                """, arguments: [after ?? 0])
        return (
            rows.map {
                ArchivedEvent(
                    position: $0[0], revision: $0[1], kind: $0[2], recordID: $0[3], otherID: $0[4], changedKeys: $0[5])
            }, rows.last.map { $0[0] }
        )
    }
}
