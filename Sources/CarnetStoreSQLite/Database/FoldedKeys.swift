import CarnetStore
import GRDB

/// Recomputes everything the store keeps that `TextFolding.fold` made, for migrations that follow a change to the
/// folding's output (v4): the contacts' sort keys (`sortGiven`, `sortFamily`), their name-index rowids (`ftsGiven`,
/// `ftsFamily`, whose high bits are the sort key's), the name index itself (`contactNameGiven`, `contactNameFamily`,
/// folded names) and the groups' `sortName`. Labeled values' search keys (emails, phone digits) fold no names.
///
/// Every value is computed by the functions the save path writes with (`ContactIndexing`, `NameIndex`,
/// `GroupIndexing`), so a refolded database holds exactly the rows a store of this version writes for the same
/// records. Record contents, revisions and history do not change: what changed is how records are found and ordered.
enum FoldedKeys {
    static func recompute(_ db: Database) throws {
        try recomputeContactKeys(db)
        try rebuildNameIndex(db)
        try recomputeGroupSortNames(db)
    }

    /// Contacts read this many at a time, in rowid order, so none is written while a read of the table is open.
    static let batchSize = 1000

    /// Sort keys and name-index rowids, in one pass over the contacts; a row is written only if a key changed.
    private static func recomputeContactKeys(_ db: Database) throws {
        let keys = ContactIndexing.sourceKeys
        let select = try db.makeStatement(
            sql: """
                SELECT rowid, sortGiven, sortFamily, ftsGiven, ftsFamily, id, \(keys.map(\.rawValue).joined(separator: ", "))
                FROM contact WHERE rowid > ? ORDER BY rowid LIMIT \(batchSize)
                """)
        let update = try db.makeStatement(
            sql: "UPDATE contact SET sortGiven = ?, sortFamily = ?, ftsGiven = ?, ftsFamily = ? WHERE rowid = ?")
        struct Stored {
            let rowid: Int64
            let sortGiven: String
            let sortFamily: String
            let ftsGiven: Int64
            let ftsFamily: Int64
            let contact: Contact
        }
        var after: Int64 = 0
        var batch: [Stored] = []
        repeat {
            batch.removeAll(keepingCapacity: true)
            let rows = try SQLiteRows(select, arguments: [after])
            while let columns = try rows.next() {
                batch.append(
                    Stored(
                        rowid: columns.int64(0), sortGiven: columns.string(1), sortFamily: columns.string(2),
                        ftsGiven: columns.int64(3), ftsFamily: columns.int64(4), contact: indexable(columns, from: 5)))
            }
            for stored in batch {
                let sortGiven = ContactIndexing.sortKey(stored.contact, .givenName)
                let sortFamily = ContactIndexing.sortKey(stored.contact, .familyName)
                let ftsGiven = try NameIndex.rowid(sortKey: sortGiven, contactRowid: stored.rowid)
                let ftsFamily = try NameIndex.rowid(sortKey: sortFamily, contactRowid: stored.rowid)
                // Keys compared by bytes: Swift's equality takes a composed key for its decomposed spelling.
                guard
                    !sortGiven.hasSameBytes(as: stored.sortGiven) || !sortFamily.hasSameBytes(as: stored.sortFamily)
                        || ftsGiven != stored.ftsGiven
                        || ftsFamily != stored.ftsFamily
                else { continue }
                var bind = SQLiteBinder(update)
                bind.text(sortGiven)
                bind.text(sortFamily)
                bind.int64(ftsGiven)
                bind.int64(ftsFamily)
                bind.int64(stored.rowid)
                try bind.execute()
            }
            after = batch.last?.rowid ?? after
        } while batch.count == batchSize
    }

    /// The name index, from scratch: a contentless FTS5 table drops a row only when given the text it indexed,
    /// and that text was folded the old way. Each table is filled in its rowid order (read from the contacts'
    /// new `ftsGiven` / `ftsFamily`, sorted by SQLite): FTS5 writes out a segment whenever a rowid comes lower than
    /// the one before, so rows in contact order would make a segment each. Also fills the tables v5 recreates
    /// with another prefix option, and v6's rowids of another layout.
    static func rebuildNameIndex(_ db: Database) throws {
        let keys = ContactIndexing.sourceKeys.map(\.rawValue).joined(separator: ", ")
        for order in NameIndex.Order.allCases {
            try db.execute(sql: "INSERT INTO \(order.table) (\(order.table)) VALUES ('delete-all')")
            let select = try db.makeStatement(
                sql: "SELECT \(order.contactColumn), id, \(keys) FROM contact ORDER BY \(order.contactColumn)")
            let rows = try SQLiteRows(select)
            while let columns = try rows.next() {
                let contact = indexable(columns, from: 1)
                try NameIndex.insert(db, order, rowid: columns.int64(0), names: ContactIndexing.names(contact))
            }
        }
    }

    private static func recomputeGroupSortNames(_ db: Database) throws {
        let update = try db.makeStatement(sql: "UPDATE \"group\" SET sortName = ? WHERE rowid = ?")
        for row in try Row.fetchAll(db, sql: "SELECT rowid, name, sortName FROM \"group\"") {
            let sortName = GroupIndexing.sortName(row[1])
            if !sortName.hasSameBytes(as: row[2] as String) {
                try update.execute(arguments: [sortName, row[0] as Int64])
            }
        }
    }

    private static let sourceKeySet = ContactKeySet(ContactIndexing.sourceKeys)

    /// A contact holding the keys `ContactIndexing` reads: its identifier at `first`, then
    /// `ContactIndexing.sourceKeys` in order.
    private static func indexable(_ columns: SQLiteColumns, from first: Int32) -> Contact {
        var contact = Contact(fetched: columns.string(first), keys: sourceKeySet)
        for (offset, key) in ContactIndexing.sourceKeys.enumerated() {
            guard let slot = key.stringSlot else { continue }
            contact.values.strings[slot] = columns.string(first + 1 + Int32(offset))
        }
        return contact
    }
}
