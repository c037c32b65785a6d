import GRDB

extension ContactLoader {
    /// Whether ``loadOne(_:identifier:)`` can serve these keys: everything but images, which live in a table of
    /// their own.
    static func canLoadInOneStatement(_ keys: ContactKeySet) -> Bool {
        !keys.contains(.imageData) && !keys.contains(.thumbnailImageData)
    }

    /// One contact by identifier in a single statement: its row, its container's identifier and its labeled
    /// values of the requested kinds, joined. One statement is its own snapshot, so the read needs no
    /// transaction; a contact by id is the most frequent request a server gets, and the transaction and the two
    /// extra statements of ``load(_:column:values:)`` cost more than the query.
    func loadOne(_ db: Database, identifier: String) throws -> Contact? {
        let kinds = MultiValueKind.allCases.filter { keys.contains($0.key) }.map(\.rawValue)
        let valueColumns = kinds.isEmpty ? "NULL, NULL, NULL, NULL" : "lv.kind, lv.id, lv.label, lv.value"
        var sql = "SELECT \(selectSQL), co.id, \(valueColumns) FROM contact c JOIN container co ON co.rowid = c.containerRowid"
        if let first = kinds.min(), let last = kinds.max() {
            // A range, not `IN (...)`: SQLite builds a temporary b-tree for an IN list on every run of the
            // statement, which costs a point read more than the rows of the kinds in between, skipped below.
            sql += """
                 LEFT JOIN labeledValue lv ON lv.contactRowid = c.rowid \
                AND \(first == last ? "lv.kind = \(first)" : "lv.kind BETWEEN \(first) AND \(last)")
                """
        }
        sql += " WHERE c.id = ?"
        if !kinds.isEmpty { sql += " ORDER BY lv.kind, lv.position" }
        let statement = try db.cachedStatement(sql: sql)
        let container = Int32(Self.metadataCount + self.columns.count)
        var contact: Contact?
        let rows = try SQLiteRows(statement, arguments: [identifier])
        while let columns = try rows.next() {
            if contact == nil {
                contact = decode(columns).contact
                contact?.containerIdentifier = columns.string(container)
            }
            guard !columns.isNull(container + 1), let kind = MultiValueKind(rawValue: columns.int(container + 1)),
                keys.contains(kind.key)
            else { continue }
            contact?.appendEncoded(kind, identifier: columns.string(container + 2),
                label: columns.optionalString(container + 3), value: columns.string(container + 4))
        }
        return contact
    }
}
