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
        let statement = try db.cachedStatement(sql: shape.singleSQL)
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
