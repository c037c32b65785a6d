import GRDB

@testable import CarnetStoreSQLite

/// The name index's rowid layouts before today's (``NameIndex``), kept here to write the rows an earlier store
/// holds: the sort key's first characters, 5 bits each, packed on past characters that share a code, above the
/// contact's rowid.
enum EarlierNameIndexLayout {
    /// v1–v5: eight characters and 23 bits of contact rowid.
    case eightCharacters
    /// v6–v11: seven characters and 28 bits, whose buckets could order two keys against their bytes.
    case sevenCharacters

    var characters: Int { self == .eightCharacters ? 8 : 7 }
    var counterBits: Int64 { self == .eightCharacters ? 23 : 28 }

    func rowid(sortKey: String, contactRowid: Int64) -> Int64 {
        precondition(contactRowid < 1 << counterBits)
        var packed: Int64 = 0
        var utf8 = sortKey.utf8.makeIterator()
        for _ in 0..<characters {
            let code: Int64
            switch utf8.next() {
            case nil: code = 0
            case let byte?:
                switch byte {
                case 0x00...0x1F: code = 1
                case 0x20...0x2F: code = 2
                case 0x30...0x60: code = 3
                case 0x61...0x7A: code = 4 + Int64(byte - 0x61)
                case 0x7B...0x7F: code = 30
                default: code = 31
                }
            }
            packed = (packed << 5) | code
        }
        return packed << counterBits | contactRowid
    }

    /// Gives every contact its index rowids in this layout and refills the name tables with them, as the
    /// migrations of these versions left them.
    func rewrite(_ db: Database) throws {
        for row in try Row.fetchAll(db, sql: "SELECT rowid, sortGiven, sortFamily FROM contact") {
            let rowid: Int64 = row[0]
            try db.execute(
                sql: "UPDATE contact SET ftsGiven = ?, ftsFamily = ? WHERE rowid = ?",
                arguments: [
                    self.rowid(sortKey: row[1], contactRowid: rowid), self.rowid(sortKey: row[2], contactRowid: rowid),
                    rowid,
                ])
        }
        try FoldedKeys.rebuildNameIndex(db)
    }
}
