import CarnetStore
import GRDB

#if canImport(GRDBSQLite)
    import GRDBSQLite
#else
    import SQLite3
#endif

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
    /// - Parameter statement: ``Shape/singleSQL`` prepared.
    func loadOne(_ statement: SQLiteStatement, identifier: String) throws -> Contact? {
        let container = Int32(Self.metadataCount + self.columns.count)
        let rows = SQLiteTextQuery(statement, argument: identifier)
        guard let first = try rows.next() else { return nil }
        // The first row's contact columns, then every row's labeled value (one per row, none for a contact without).
        // The container's identifier comes from the join, so no map of containers is needed.
        var contact = decode(first, containers: [:]).contact
        contact.containerIdentifier = first.string(container)
        var next: SQLiteColumns? = first
        while let columns = next {
            if !columns.isNull(container + 1), let kind = MultiValueKind(rawValue: columns.int(container + 1)),
                keys.contains(kind.key)
            {
                contact.appendEncoded(
                    kind, identifier: columns.string(container + 2),
                    label: columns.optionalString(container + 3), value: columns.string(container + 4))
            }
            next = try rows.next()
        }
        return contact
    }
}
