import GRDB

/// The name search index: two FTS5 tables of folded names, one per name order, whose rowids follow that
/// order. FTS5 yields matches in rowid order, so "the first 50 matches by family name" is the first 50 rows
/// of the match, read lazily, however many contacts match.
///
/// A rowid is the sort key's first seven characters packed into 42 bits (order-preserving) followed by a
/// 21-bit counter that tells apart contacts whose keys share that prefix. Rows sharing a prefix are put in
/// exact (sort key, identifier) order after reading.
enum NameIndex {
    enum Order: CaseIterable {
        case family, given

        var table: String { self == .family ? "contactNameFamily" : "contactNameGiven" }
        var contactColumn: String { self == .family ? "ftsFamily" : "ftsGiven" }
        var sortColumn: String { self == .family ? "sortFamily" : "sortGiven" }
    }

    static let counterBits: Int64 = 21

    /// The first rowid of the bucket a sort key falls in.
    static func bucket(_ sortKey: String) -> Int64 {
        var packed: Int64 = 0
        var utf8 = sortKey.utf8.makeIterator()
        for _ in 0..<7 {
            packed = (packed << 6) | code(utf8.next())
        }
        return packed << counterBits
    }

    /// Maps bytes to 6-bit codes without changing their order; every non-ASCII byte maps to the top code.
    private static func code(_ byte: UInt8?) -> Int64 {
        guard let byte else { return 0 }
        switch byte {
        case 0x00...0x1F: return 1
        case 0x20: return 2
        case 0x21...0x2F: return 3
        case 0x30...0x39: return 4 + Int64(byte - 0x30)
        case 0x3A...0x40: return 14
        case 0x41...0x5A: return 15  // keys are folded: capitals do not occur
        case 0x5B...0x60: return 16
        case 0x61...0x7A: return 17 + Int64(byte - 0x61)
        case 0x7B...0x7F: return 43
        default: return 44
        }
    }

    /// A free rowid in the bucket of `sortKey` (insert it before allocating another in the same transaction).
    static func allocate(_ db: Database, _ order: Order, sortKey: String) throws -> Int64 {
        let start = bucket(sortKey)
        let end = start + (1 << counterBits)
        let last = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT rowid FROM \(order.table) WHERE rowid >= ? AND rowid < ? ORDER BY rowid DESC LIMIT 1"),
            arguments: [start, end])
        var rowid = (last ?? start - 1) + 1
        if rowid >= end {
            // The bucket's counter ran out at its top: take the first free slot below it.
            rowid = try Int64.fetchOne(
                db.cachedStatement(sql: """
                    SELECT a.rowid + 1 FROM \(order.table) a WHERE a.rowid >= ? AND a.rowid < ?
                    AND NOT EXISTS (SELECT 1 FROM \(order.table) b WHERE b.rowid = a.rowid + 1) LIMIT 1
                    """), arguments: [start, end - 1]) ?? start
        }
        return rowid
    }

    static func insert(_ db: Database, _ order: Order, rowid: Int64, names: String, contactRowid: Int64) throws {
        try db.cachedStatement(sql: "INSERT INTO \(order.table) (rowid, names, contactRowid) VALUES (?, ?, ?)")
            .execute(arguments: [rowid, names, contactRowid])
    }

    static func delete(_ db: Database, _ order: Order, rowid: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM \(order.table) WHERE rowid = ?").execute(arguments: [rowid])
    }

    /// The FTS5 query for name words: each a prefix, all required.
    static func match(_ words: [String]) -> String {
        words.map { "\"\($0)\"*" }.joined(separator: " AND ")
    }
}
