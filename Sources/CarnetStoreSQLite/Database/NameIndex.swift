import CarnetStore
import GRDB

/// The name search index: two contentless FTS5 tables of folded names, one per name order, whose rowids follow
/// that order. FTS5 yields matches in rowid order, so "the first 50 matches by family name" is the first 50 rows
/// of the match, read lazily, however many contacts match.
///
/// A rowid is the sort key's first seven characters packed into 35 bits (5 bits a character, up to the first that
/// shares its code with others: ``bucket(_:)``) followed by the contact's rowid in 28 bits: unique by construction,
/// and the contact is the rowid's low bits, so the tables store the index and nothing else. Rows sharing a bucket
/// (the same packed characters) are put in exact (sort key, identifier) order after reading; a large bucket
/// through the contacts' sort-key index (``OrderedNameSearch``). The layout addresses contact rowids up to
/// 2²⁸ − 1 (268 million; a new contact takes the rowid above the highest, so deleted contacts count) since v6; it
/// was eight characters and 23 bits (8.4 million).
///
/// Seven characters rather than six: a family name of five letters keeps the given name's initial in its bucket
/// ("smith", the separator and "a": 2,372 contacts in the benchmark's million), where six would make every Smith
/// one bucket (14,385); a name of six letters is one bucket ("muller" and the separator: 6,701, the largest). Eight
/// split those by initial too (3,658 at most, "angstrom"), but left 23 bits for the contact.
///
/// `package` so the benchmark's hand-written SQL writes the store's own rowids.
package enum NameIndex {
    enum Order: CaseIterable {
        case family, given

        var table: String { self == .family ? "contactNameFamily" : "contactNameGiven" }
        /// The unified contacts' table in this order (``LinkedNameIndex``).
        var linkedTable: String { table + "Linked" }
        var contactColumn: String { self == .family ? "ftsFamily" : "ftsGiven" }
        var sortColumn: String { self == .family ? "sortFamily" : "sortGiven" }
    }

    /// The longest prefix length the tables index (`prefix = '1 2 3 4'` since v5; '1 2 3' before). Four-letter
    /// words of common names ("müll") start many terms: read as an OR of them, FTS5 merged one doclist per term.
    static let longestIndexedPrefix = 4

    /// A longer word is read as the OR of the terms it starts when they are at most this many. 64 rather than 32
    /// since v5: a four-letter "Weiß" is the five-letter "weiss", whose 46 terms FTS5 read as one prefix by merging
    /// every doclist (1.5 ms at 1M contacts, each time the scan asks for another batch) but as an OR in 0.7 ms.
    static let maxExpandedTerms = 64

    /// How many leading sort-key characters a rowid holds, 5 bits each, above ``counterBits`` bits of the contact's
    /// rowid: 5 × 7 + 28 = 63, every rowid positive. v6 rebuilt the index for this layout (8 and 23 before).
    static let keyCharacters = 7
    static let counterBits: Int64 = 28
    static let contactMask: Int64 = (1 << counterBits) - 1

    /// The first rowid of the bucket a sort key falls in. Monotone: a key that sorts before another (by bytes) never
    /// falls in a later bucket. So the packing stops after the first byte whose code other bytes share (digits,
    /// spaces, punctuation, non-ASCII): keys that first differ at such a byte share a bucket whatever follows.
    /// Packing on (v6–v11) let the bytes after it order the buckets against the keys ("f1␁zed" before "f2␁ann",
    /// yet "zed" after "ann"), and an ordered name search skipped contacts from one page to the next.
    static func bucket(_ sortKey: String) -> Int64 {
        var packed: Int64 = 0
        var utf8 = sortKey.utf8.makeIterator()
        var ended = false
        for _ in 0..<keyCharacters {
            let byte = ended ? nil : utf8.next()
            packed = (packed << 5) | code(byte)
            ended = ended || !(byte.map(isOnlyOneOfItsCode) ?? false)
        }
        return packed << counterBits
    }

    /// A letter, or the keys' separator U+0001 (validation keeps every other control character out of names, as
    /// ``lowestKey(bucket:)`` assumes).
    private static func isOnlyOneOfItsCode(_ byte: UInt8) -> Bool { byte == 0x01 || (0x61...0x7A).contains(byte) }

    /// The lowest sort key a bucket (`rowid >> counterBits`) can hold: each character the lowest byte of its code.
    /// Stops before a non-ASCII code (its lowest byte is no whole character; the shorter key is lower still). Code
    /// 1's lowest stored byte is 0x01, the keys' separator: validation keeps control characters, NUL included, out
    /// of names.
    static func lowestKey(bucket: Int64) -> String {
        var bytes: [UInt8] = []
        for position in 0..<keyCharacters {
            let code = (bucket >> Int64(5 * (keyCharacters - 1 - position))) & 31
            switch code {
            case 0, 31: return String(decoding: bytes, as: UTF8.self)
            case 1: bytes.append(0x01)
            case 2: bytes.append(0x20)
            case 3: bytes.append(0x30)
            case 30: bytes.append(0x7B)
            default: bytes.append(0x61 + UInt8(code - 4))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
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

    /// The index rowid of a contact with this sort key. - Throws: past 2²⁸ contacts, which the layout cannot hold.
    package static func rowid(sortKey: String, contactRowid: Int64) throws -> Int64 {
        guard contactRowid <= contactMask else {
            throw StoreError(.validationFailed, "The store holds as many contacts as its name index can address")
        }
        return bucket(sortKey) | contactRowid
    }

    /// Indexes `names` in both orders, under each order's rowid. The text is made once for both tables.
    static func insert(_ db: Database, linked: Bool = false, given: Int64, family: Int64, names: String) throws {
        let text = indexedText(names)
        try write(db, .given, linked: linked, rowid: given, text: text, delete: false)
        try write(db, .family, linked: linked, rowid: family, text: text, delete: false)
    }

    /// Removes a contact's rows in both orders; a contentless table needs the text that was indexed.
    static func delete(_ db: Database, linked: Bool = false, given: Int64, family: Int64, names: String) throws {
        let text = indexedText(names)
        try write(db, .given, linked: linked, rowid: given, text: text, delete: true)
        try write(db, .family, linked: linked, rowid: family, text: text, delete: true)
    }

    /// Indexes `names` in one order: for a rebuild, which fills each table in its own rowid order.
    static func insert(_ db: Database, _ order: Order, rowid: Int64, names: String) throws {
        try write(db, order, linked: false, rowid: rowid, text: indexedText(names), delete: false)
    }

    private static func write(
        _ db: Database, _ order: Order, linked: Bool, rowid: Int64, text: String, delete: Bool
    ) throws {
        let table = linked ? order.linkedTable : order.table
        let statement = try db.cachedStatement(
            sql: delete
                ? "INSERT INTO \(table) (\(table), rowid, names) VALUES ('delete', ?, ?)"
                : "INSERT INTO \(table) (rowid, names) VALUES (?, ?)")
        var bind = SQLiteBinder(statement)
        bind.int64(rowid)
        bind.text(text)
        try bind.execute()
    }

    /// The text the tables index for `names`: its words (``TextFolding/words(_:)``, as the PostgreSQL backend
    /// indexes them and both backends split a query) separated by spaces. The tables tokenize with `ascii`, which
    /// splits at ASCII punctuation and spaces only and keeps every other character in its token, so each word is one
    /// term. Under `unicode61` (v1–v12) SQLite split words itself: at a letter's mark ("कि"), a joiner or a circled
    /// letter, and not at a private-use character, so the two backends found different contacts (an outside
    /// differential tester's find).
    package static func indexedText(_ names: String) -> String {
        TextFolding.splitWords(names).joined(separator: " ")
    }

    /// The FTS5 query for name words: each a prefix, all required; `nil` when a word prefixes no indexed term.
    ///
    /// Words of up to ``longestIndexedPrefix`` characters use the prefix indexes (`prefix = '1 2 3 4'`, v5), which
    /// FTS5 reads lazily. A longer word becomes the OR of the terms it prefixes when they are few: FTS5 would
    /// otherwise merge all of their postings before returning the first match.
    static func match(_ db: Database, _ order: Order, _ words: [String]) throws -> String? {
        var parts: [String] = []
        for word in words {
            guard word.unicodeScalars.count > longestIndexedPrefix else {
                parts.append("\(quoted(word))*")
                continue
            }
            let terms = try String.fetchAll(
                db.cachedStatement(
                    sql:
                        "SELECT term FROM \(order.table)_terms WHERE term >= ? AND term < ? LIMIT \(maxExpandedTerms + 1)"
                ),
                arguments: [word, word + "\u{10FFFF}"])
            if terms.isEmpty { return nil }
            parts.append(
                terms.count > maxExpandedTerms
                    ? "\(quoted(word))*" : "(" + terms.map(quoted).joined(separator: " OR ") + ")")
        }
        return parts.joined(separator: " AND ")
    }

    /// A term as an FTS5 string. Words hold no ASCII punctuation (``TextFolding/words(_:)``), quotes included;
    /// escaped all the same, so that no word can change the query's syntax.
    private static func quoted(_ term: String) -> String {
        "\"" + term.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
