import CarnetStore
import GRDB

extension SaveTransaction {
    /// Checks that each kept UID the save wrote names one contact (``KeptUIDClaims``): after every operation, so a
    /// UID that a deleted contact let go of, or that another operation takes, counts as it will be committed.
    func checkKeptUIDs(_ claims: KeptUIDClaims) throws {
        guard !claims.isEmpty else { return }
        let uids = claims.uids
        var contacts: [String] = []
        for chunk in uids.filter(Identifiers.isValid).chunked(500) {
            contacts += try String.fetchAll(
                db, sql: "SELECT id FROM contact WHERE id IN (\(databaseQuestionMarks(count: chunk.count)))",
                arguments: StatementArguments(Array(chunk)))
        }
        try claims.check(keepers: SQLiteStore.contacts(db, keepingVCardUIDs: uids), contacts: contacts)
    }
}
