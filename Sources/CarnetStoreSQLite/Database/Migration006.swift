import CarnetStore
import GRDB

/// A wider name-index rowid layout: the sort key's first seven characters (35 bits) and the contact's rowid in 28
/// bits, where it was eight characters and 23 bits (``NameIndex``). Contact rowids are never reused, so a store that
/// had ever added 2²³ contacts (8.4 million, deleted ones included) refused every further add; it now takes 2²⁸
/// (268 million).
///
/// Every contact's `ftsGiven` and `ftsFamily` are recomputed from its stored sort keys by `NameIndex.rowid`, the
/// function the save path writes them with, then both name tables are refilled by `FoldedKeys.rebuildNameIndex`,
/// as v4 and v5 refill them, in the new rowid order. Sort keys, records, revisions and history do not change, nor
/// do pagination cursors, which hold a sort key, an identifier and a contact rowid but no index rowid.
///
/// Runs with foreign keys on (`.immediate`): it changes no reference, and a deferred check would read every table
/// of a large store again.
enum Migration006 {
    static func migrate(_ db: Database) throws {
        try recomputeIndexRowids(db)
        try FoldedKeys.rebuildNameIndex(db)
    }

    /// `ftsGiven` and `ftsFamily` in the new layout, contacts read `FoldedKeys.batchSize` at a time in rowid order
    /// so none is written while a read of the table is open.
    static func recomputeIndexRowids(_ db: Database) throws {
        let select = try db.makeStatement(
            sql: """
                SELECT rowid, sortGiven, sortFamily, ftsGiven, ftsFamily FROM contact
                WHERE rowid > ? ORDER BY rowid LIMIT \(FoldedKeys.batchSize)
                """)
        let update = try db.makeStatement(sql: "UPDATE contact SET ftsGiven = ?, ftsFamily = ? WHERE rowid = ?")
        var after: Int64 = 0
        var read = 0
        var changed: [(rowid: Int64, ftsGiven: Int64, ftsFamily: Int64)] = []
        repeat {
            read = 0
            changed.removeAll(keepingCapacity: true)
            let rows = try SQLiteRows(select, arguments: [after])
            while let columns = try rows.next() {
                read += 1
                let rowid = columns.int64(0)
                after = rowid
                let ftsGiven = try NameIndex.rowid(sortKey: columns.string(1), contactRowid: rowid)
                let ftsFamily = try NameIndex.rowid(sortKey: columns.string(2), contactRowid: rowid)
                if ftsGiven != columns.int64(3) || ftsFamily != columns.int64(4) {
                    changed.append((rowid, ftsGiven, ftsFamily))
                }
            }
            for row in changed {
                var bind = SQLiteBinder(update)
                bind.int64(row.ftsGiven)
                bind.int64(row.ftsFamily)
                bind.int64(row.rowid)
                try bind.execute()
            }
        } while read == FoldedKeys.batchSize
    }
}
