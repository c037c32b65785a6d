import GRDB

extension CarnetStore {
    /// The contacts that keep these vCard UIDs among their ``ContactKey/vCardProperties`` (cards whose UID is no
    /// Carnet identifier), by UID. One indexed query per 500 UIDs.
    public func contactIdentifiers(keepingVCardUIDs uids: [String]) async throws -> [String: String] {
        guard !uids.isEmpty else { return [:] }
        return try await read { db in
            var result: [String: String] = [:]
            for chunk in uids.chunked(500) {
                let keys = chunk.map { "UID:\($0)" }
                let rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT v.searchKey, c.id FROM labeledValue v JOIN contact c ON c.rowid = v.contactRowid
                        WHERE v.kind = ? AND v.searchKey IN (\(databaseQuestionMarks(count: keys.count)))
                        """, arguments: [MultiValueKind.vCardProperties.rawValue] + StatementArguments(keys))
                for row in rows { result[String((row[0] as String).dropFirst(4))] = row[1] }
            }
            return result
        }
    }

    /// What would make a save refuse this contact as an add: the key paths of its bad properties (empty when
    /// valid). Lets an import skip one bad card instead of failing its whole batch.
    public static func validationProblems(ofNewContact contact: Contact) -> [String] {
        Validation.contact(contact, keys: .all).sorted()
    }
}
