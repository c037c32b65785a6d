import CarnetStore
import PostgresNIO

extension PostgresSaveTransaction {
    /// Checks that each kept UID the save wrote names one contact (``KeptUIDClaims``), in one statement after
    /// every operation, so a UID that a deleted contact let go of, or that another operation takes, counts as it
    /// will be committed.
    func checkKeptUIDs(_ claims: KeptUIDClaims) async throws {
        guard !claims.isEmpty else { return }
        let uids = claims.uids
        let (lines, keys) = KeptVCardLine.uidLookup(uids.map(\.storable))
        let named = uids.filter(Identifiers.isValid)
        let rows = try await run(
            """
            SELECT value, contact_id FROM labeled_value
            WHERE book_id = \(bookID) AND kind = \(Int16(MultiValueKind.vCardProperties.rawValue))
                AND search_key = ANY(\(keys))
            UNION ALL SELECT NULL, id FROM contact WHERE book_id = \(bookID) AND id = ANY(\(named))
            """
        ).decode((String?, String).self)
        var keepers: [(uid: String, contact: String)] = []
        var contacts: [String] = []
        for try await (line, contact) in rows {
            guard let line else {
                contacts.append(contact)
                continue
            }
            if let uid = KeptVCardLine.uid(of: line, among: lines) { keepers.append((uid, contact)) }
        }
        try claims.check(keepers: keepers, contacts: contacts)
    }
}
