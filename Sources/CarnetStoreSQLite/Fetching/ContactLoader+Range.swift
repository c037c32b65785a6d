import CarnetStore
import GRDB

extension ContactLoader {
    /// Up to `limit` contacts after a rowid, in rowid order, with their labeled values: a full sync's snapshot
    /// reads the table straight through instead of listing identifiers and looking each one up again.
    func loadRange(_ db: Database, afterRowid: Int64, limit: Int) throws -> (rowids: [Int64], contacts: [Contact]) {
        var rowids: [Int64] = []
        var contacts: [Contact] = []
        rowids.reserveCapacity(limit)
        contacts.reserveCapacity(limit)
        let containers = try Self.containerNames(db)
        let statement = try db.cachedStatement(
            sql: "SELECT \(selectSQL) FROM contact c WHERE c.rowid > ? ORDER BY c.rowid LIMIT ?")
        let rows = try SQLiteRows(statement, arguments: [afterRowid, limit])
        while let columns = try rows.next() {
            let (rowid, contact) = decode(columns, containers: containers)
            rowids.append(rowid)
            contacts.append(contact)
        }
        try loadRelated(db, rowids: rowids, into: &contacts, contiguous: true)
        return (rowids, contacts)
    }
}
