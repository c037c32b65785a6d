import GRDB

/// The name search index: two contentless FTS5 tables of folded names, one per name order, whose rowids follow
/// that order. FTS5 yields matches in rowid order, so "the first 50 matches by family name" is the first 50 rows
/// of the match, read lazily, however many contacts match.
///
/// A rowid is the sort key's first eight characters packed into 40 bits (order-preserving, 5 bits a character)
/// followed by the contact's rowid in 23 bits: unique by construction, and the contact is the rowid's low bits,
/// so the tables store the index and nothing else. The eighth character splits a common family name by the given
/// name's initial, which keeps buckets small; rows sharing a bucket are put in exact (sort key, identifier) order
/// after reading. The layout addresses 8.4 million contacts.
///
/// `package` so the benchmark's hand-written SQL writes the store's own rowids.
package enum NameIndex {
    enum Order: CaseIterable {
        case family, given

        var table: String { self == .family ? "contactNameFamily" : "contactNameGiven" }
        var contactColumn: String { self == .family ? "ftsFamily" : "ftsGiven" }
        var sortColumn: String { self == .family ? "sortFamily" : "sortGiven" }
    }

    static let counterBits: Int64 = 23
    static let contactMask: Int64 = (1 << counterBits) - 1

    /// The first rowid of the bucket a sort key falls in.
    static func bucket(_ sortKey: String) -> Int64 {
        var packed: Int64 = 0
        var utf8 = sortKey.utf8.makeIterator()
        for _ in 0..<8 {
            packed = (packed << 5) | code(utf8.next())
        }
        return packed << counterBits
    }

    /// Maps bytes to 5-bit codes without changing their order: letters each get one; digits and most
    /// punctuation share one (folded keys are letters, separators and spaces, mostly); non-ASCII shares the top.
    private static func code(_ byte: UInt8?) -> Int64 {
        guard let byte else { return 0 }
        switch byte {
        case 0x00...0x1F: return 1
        case 0x20...0x2F: return 2
        case 0x30...0x60: return 3
        case 0x61...0x7A: return 4 + Int64(byte - 0x61)
        case 0x7B...0x7F: return 30
        default: return 31
        }
    }

    /// The index rowid of a contact with this sort key. - Throws: past 2²³ contacts, which the layout cannot hold.
    package static func rowid(sortKey: String, contactRowid: Int64) throws -> Int64 {
        guard contactRowid <= contactMask else {
            throw StoreError(.validationFailed, "The store holds as many contacts as its name index can address")
        }
        return bucket(sortKey) | contactRowid
    }

    static func insert(_ db: Database, _ order: Order, rowid: Int64, names: String) throws {
        let statement = try db.cachedStatement(sql: "INSERT INTO \(order.table) (rowid, names) VALUES (?, ?)")
        var bind = SQLiteBinder(statement)
        bind.int64(rowid)
        bind.text(names)
        try bind.execute()
    }

    /// Removes a row; a contentless table needs the text that was indexed.
    static func delete(_ db: Database, _ order: Order, rowid: Int64, names: String) throws {
        let statement = try db.cachedStatement(
            sql: "INSERT INTO \(order.table) (\(order.table), rowid, names) VALUES ('delete', ?, ?)")
        var bind = SQLiteBinder(statement)
        bind.int64(rowid)
        bind.text(names)
        try bind.execute()
    }

    /// The FTS5 query for name words: each a prefix, all required; `nil` when a word prefixes no indexed term.
    ///
    /// Words of up to three characters use the prefix indexes (`prefix = '1 2 3'`), which FTS5 reads lazily. A
    /// longer word becomes the OR of the terms it prefixes when they are few: FTS5 would otherwise merge all of
    /// their postings before returning the first match.
    static func match(_ db: Database, _ order: Order, _ words: [String]) throws -> String? {
        var parts: [String] = []
        for word in words {
            guard word.count > 3 else {
                parts.append("\"\(word)\"*")
                continue
            }
            let terms = try String.fetchAll(
                db.cachedStatement(sql: "SELECT term FROM \(order.table)_terms WHERE term >= ? AND term < ? LIMIT 33"),
                arguments: [word, word + "\u{10FFFF}"])
            if terms.isEmpty { return nil }
            parts.append(terms.count > 32 ? "\"\(word)\"*" : "(" + terms.map { "\"\($0)\"" }.joined(separator: " OR ") + ")")
        }
        return parts.joined(separator: " AND ")
    }
}
