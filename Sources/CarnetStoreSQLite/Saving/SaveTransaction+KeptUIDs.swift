import CarnetStore
import GRDB

extension SaveTransaction {
    /// Checks that each kept UID the save wrote names one contact (``KeptUIDClaims``): after every operation, so a
    /// UID that a deleted contact let go of, or that another operation takes, counts as it will be committed.
    func checkKeptUIDs(_ claims: KeptUIDClaims) throws {
        guard !claims.isEmpty else { return }
        var keepers: [(uid: String, contact: String)] = []
        var contacts: [String] = []
        for chunk in claims.uids.chunked(500) {
            let (lines, keys) = KeptVCardLine.uidLookup(chunk)
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT v.value, c.id FROM labeledValue v JOIN contact c ON c.rowid = v.contactRowid
                    WHERE v.kind = ? AND v.searchKey IN (\(databaseQuestionMarks(count: keys.count)))
                    """, arguments: [MultiValueKind.vCardProperties.rawValue] + StatementArguments(keys))
            // A long UID's key is its first bytes: the whole line decides, byte for byte.
            for row in rows {
                let line: String = row[0]
                guard lines.contains(Array(line.utf8)), let uid = KeptVCardLine.uid(in: line) else { continue }
                keepers.append((uid, row[1]))
            }
            let named = chunk.filter(Identifiers.isValid)
            guard !named.isEmpty else { continue }
            contacts += try String.fetchAll(
                db, sql: "SELECT id FROM contact WHERE id IN (\(databaseQuestionMarks(count: named.count)))",
                arguments: StatementArguments(named))
        }
        try claims.check(keepers: keepers, contacts: contacts)
    }
}
