import CarnetStore
import GRDB

/// Names refolded composed: folding composes text (NFC) first since v14, so a name stored decomposed ("한국" as
/// conjoining jamo, "が" as "か" and a voicing mark) is found by, and sorts with, its precomposed spelling; and the
/// name index holds the folded names split into words, not folded again, so a name with marks Foundation strips
/// only on a second pass finds itself. A store with
/// a name whose keys this changes gets its sort keys, name index, unified contacts' rows and group sort names
/// computed again (``FoldedKeys``); others have their names that are not ASCII read once.
///
/// The unified contacts' rows are rebuilt from empty tables: a contentless table drops a row only when given the
/// text it indexed, and the kept text (`contactLinkName.names`) was folded the old way, which today's folding of it
/// does not give back.
enum Migration014 {
    static func migrate(_ db: Database) throws {
        guard try holdsUncomposedNames(db) else { return }
        try FoldedKeys.recompute(db)
        for order in NameIndex.Order.allCases {
            try db.execute(sql: "INSERT INTO \(order.linkedTable) (\(order.linkedTable)) VALUES ('delete-all')")
        }
        try db.execute(sql: "DELETE FROM contactLinkName")
        try LinkedNameIndex.refresh(db, Set(String.fetchAll(db, sql: "SELECT DISTINCT unifiedId FROM contactLink")))
    }

    /// Whether a contact's or a group's derived keys differ under today's folding (``ContactIndexing/isFoldedDifferently(_:)``).
    /// Names of ASCII only (SQLite's `length` counts characters, equal to the bytes' count) are not read.
    private static func holdsUncomposedNames(_ db: Database) throws -> Bool {
        let keys = ContactIndexing.sourceKeys
        let columns = keys.map(\.rawValue)
        let nonASCII = columns.map { "length(CAST(\($0) AS BLOB)) <> length(\($0))" }.joined(separator: " OR ")
        let names = try db.makeStatement(
            sql: "SELECT id, \(columns.joined(separator: ", ")) FROM contact WHERE \(nonASCII)")
        let rows = try SQLiteRows(names)
        let keySet = ContactKeySet(keys)
        while let row = try rows.next() {
            var contact = Contact(fetched: row.string(0), keys: keySet)
            for (offset, key) in keys.enumerated() {
                guard let slot = key.stringSlot else { continue }
                contact.values.strings[slot] = row.string(Int32(offset + 1))
            }
            if ContactIndexing.isFoldedDifferently(contact) { return true }
        }
        return try String.fetchCursor(
            db, sql: "SELECT name FROM \"group\" WHERE length(CAST(name AS BLOB)) <> length(name)"
        ).contains { GroupIndexing.isFoldedDifferently($0) }
    }
}
