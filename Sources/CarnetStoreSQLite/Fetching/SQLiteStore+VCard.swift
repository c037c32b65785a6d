import CarnetStore
import GRDB

extension SQLiteStore {
    /// The contacts that keep these vCard UIDs among their ``ContactKey/vCardProperties`` (cards whose UID is no
    /// Carnet identifier), by UID. One indexed query per 500 UIDs.
    public func contactIdentifiers(keepingVCardUIDs uids: [String]) async throws -> [(uid: String, contact: String)] {
        guard !uids.isEmpty else { return [] }
        return try await read { db in try Self.contacts(db, keepingVCardUIDs: uids) }
    }

    /// ``contactIdentifiers(keepingVCardUIDs:)`` within a read or a save's transaction.
    static func contacts(_ db: Database, keepingVCardUIDs uids: [String]) throws -> [(uid: String, contact: String)] {
        var result: [(uid: String, contact: String)] = []
        for chunk in uids.chunked(500) {
            let (lines, keys) = KeptVCardLine.uidLookup(chunk)
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT v.value, c.id FROM labeledValue v JOIN contact c ON c.rowid = v.contactRowid
                    WHERE v.kind = ? AND v.searchKey IN (\(databaseQuestionMarks(count: keys.count)))
                    """, arguments: [MultiValueKind.vCardProperties.rawValue] + StatementArguments(keys))
            for row in rows {
                if let uid = KeptVCardLine.uid(of: row[0], among: lines) { result.append((uid, row[1])) }
            }
        }
        return result
    }

    /// Whether any contact keeps a vCard UID (one indexed probe): when none does, an import need not look cards
    /// up by kept UID.
    public func hasContactsKeepingVCardUIDs() async throws -> Bool {
        try await read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM labeledValue WHERE kind = ? AND searchKey IS NOT NULL)
                    """, arguments: [MultiValueKind.vCardProperties.rawValue]) ?? false
        }
    }

    /// Which of these identifiers an added record could not take: retired (a deleted record's, never reused)
    /// or held by a group, container or labeled value. A contact's own identifier is not listed; fetch the
    /// contacts to find those. An import gives a card whose UID is listed a new identifier instead of failing.
    public func unavailableIdentifiers(_ identifiers: [String]) async throws -> Set<String> {
        guard !identifiers.isEmpty else { return [] }
        return try await read { db in
            var result: Set<String> = []
            for chunk in identifiers.chunked(500) {
                let list = databaseQuestionMarks(count: chunk.count)
                // One statement, each table's unique index probed for the chunk.
                let sql =
                    (["retiredIdentifier", "contact", "\"group\"", "container", "labeledValue"]
                    .map { "SELECT id FROM \($0) WHERE id IN (\(list))" }
                    + ["SELECT unifiedId FROM contactLink WHERE unifiedId IN (\(list))"]).joined(
                        separator: " UNION ALL ")
                let arguments = StatementArguments(Array(repeatElement(Array(chunk), count: 6).joined()))
                result.formUnion(try String.fetchAll(db, sql: sql, arguments: arguments))
            }
            return result
        }
    }
}
