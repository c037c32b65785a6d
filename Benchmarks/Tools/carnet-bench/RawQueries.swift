import CarnetStore
import Foundation
import GRDB
import Synchronization

/// Each benchmarked read, written by hand in SQL on the same file: the floor Carnet is compared with.
/// Every function decodes the columns it selects into Swift values, as any caller would, and returns the row count.
enum RawQueries {
    /// A contact with the 8 keys of "fetch by id".
    struct FetchedContact {
        var id: String
        var revision: Int64
        var strings: [String]
        var birthday: String?
        var values: [(kind: Int, id: String, label: String?, value: String)] = []
    }

    /// The 8 keys of "fetch by id": 5 columns of `contact`, 3 kinds of labeled values (phone, email, postal).
    static func fetchByID(_ db: Database, _ id: String) throws -> Int {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT rowid, id, revision, givenName, familyName, organizationName, jobTitle, birthday
                        FROM contact WHERE id = ?
                        """), arguments: [id])
        else { return 0 }
        let rowid: Int64 = row[0]
        var contact = FetchedContact(
            id: row[1], revision: row[2], strings: [row[3], row[4], row[5], row[6]],
            birthday: row[7])
        let values = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT kind, id, label, value FROM labeledValue
                    WHERE contactRowid = ? AND kind IN (1, 2, 3) ORDER BY kind, position
                    """), arguments: [rowid])
        while let value = try values.next() { contact.values.append((value[0], value[1], value[2], value[3])) }
        return 1 + contact.values.count
    }

    /// How many low bits of a name index rowid hold the contact's rowid: the most for which every sampled
    /// contact's `ftsFamily` ends with its rowid (the bits above belong to the sort key). Samples the first and
    /// last 200 contacts: two index seeks.
    static func contactBits(_ db: Database) throws -> Int64 {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT rowid, ftsFamily FROM (SELECT rowid, ftsFamily FROM contact ORDER BY rowid LIMIT 200)
                UNION ALL SELECT rowid, ftsFamily FROM (SELECT rowid, ftsFamily FROM contact ORDER BY rowid DESC LIMIT 200)
                """)
        guard !rows.isEmpty else { return 24 }
        let pairs = rows.map { ($0[0] as Int64, $0[1] as Int64) }
        return (1...62).last { bits in pairs.allSatisfy { $0.1 & ((Int64(1) << bits) - 1) == $0.0 } } ?? 24
    }

    /// The FTS5 query: each word a prefix, all required. A word longer than the prefix indexes (4 characters:
    /// `prefix = '1 2 3 4'` since the store's v5, and the benchmark's databases always have the current schema)
    /// becomes the OR of the few terms it starts when the vocabulary table exists, as the store does: FTS5 merges
    /// a long prefix's postings before the first row, but reads an OR of terms lazily.
    static func match(_ db: Database, _ text: String) throws -> String {
        let vocabulary = try db.tableExists("contactNameFamily_terms")
        return try TextFolding.words(text).map { word in
            guard vocabulary, word.count > 4 else { return "\"\(word)\"*" }
            let terms = try String.fetchAll(
                db.cachedStatement(
                    sql: "SELECT term FROM contactNameFamily_terms WHERE term >= ? AND term < ? LIMIT 65"),
                arguments: [word, word + "\u{10FFFF}"])
            guard !terms.isEmpty, terms.count <= 64 else { return "\"\(word)\"*" }
            return "(" + terms.map { "\"\($0)\"" }.joined(separator: " OR ") + ")"
        }.joined(separator: " AND ")
    }

    /// The name index's rows follow the family-name order (rowid = packed sort key, then the contact's rowid),
    /// so the first matches in rowid order are the page; read one more, then put them in exact (sortFamily, id)
    /// order.
    static func nameSearch(_ db: Database, _ text: String) throws -> Int {
        let rows = try Row.fetchCursor(NameIndexSQL.ordered(db), arguments: [match(db, text)])
        var names: [(id: String, given: String, family: String, sortKey: String)] = []
        while let row = try rows.next() { names.append((row[0], row[1], row[2], row[3])) }
        names.sort { ($0.sortKey, $0.id) < ($1.sortKey, $1.id) }
        return min(names.count, 50)
    }

    static func naiveNameSearch(_ db: Database, _ text: String) throws -> Int {
        try decodeNames(NameIndexSQL.naive(db), [TextFolding.match(text)])
    }

    /// A contact can hold the same address twice: each contact once.
    static let valueSearchSQL = """
        SELECT c.id, c.givenName, c.familyName FROM contact c
        WHERE c.rowid IN (SELECT contactRowid FROM labeledValue WHERE kind = ? AND searchKey = ?)
        ORDER BY c.sortFamily, c.id LIMIT 51
        """

    static func emailSearch(_ db: Database, _ email: String) throws -> Int {
        try decodeNames(db.cachedStatement(sql: valueSearchSQL), [2, TextFolding.emailKey(email)])
    }

    static func phoneSearch(_ db: Database, _ phone: String) throws -> Int {
        guard let key = TextFolding.phoneKey(phone) else { return 0 }
        return try decodeNames(db.cachedStatement(sql: valueSearchSQL), [1, key])
    }

    /// A page of 50 by family name after (sortFamily, id), or the first page.
    static func page(_ db: Database, after: (sortKey: String, id: String)?) throws -> Int {
        if let after {
            return try decodeNames(
                db.cachedStatement(
                    sql: """
                        SELECT id, givenName, familyName FROM contact WHERE (sortFamily, id) > (?, ?)
                        ORDER BY sortFamily, id LIMIT 51
                        """), [after.sortKey, after.id])
        }
        return try decodeNames(
            db.cachedStatement(sql: "SELECT id, givenName, familyName FROM contact ORDER BY sortFamily, id LIMIT 51"),
            [])
    }

    /// Decodes up to 51 rows (the 51st tells whether there is a next page) and returns the page's size.
    static func decodeNames(_ statement: Statement, _ arguments: StatementArguments) throws -> Int {
        let rows = try Row.fetchCursor(statement, arguments: arguments)
        var names: [(String, String, String)] = []
        while let row = try rows.next() { names.append((row[0], row[1], row[2])) }
        return min(names.count, 50)
    }

    /// The number of contacts an FTS query matches (outside the timings: it explains them).
    static func nameMatchCount(_ db: Database, _ text: String) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM contactNameFamily WHERE contactNameFamily MATCH ?"),
            arguments: [match(db, text)]) ?? 0
    }
}

/// The name searches' SQL, which embeds the contact bits of the index rowids (learned once per connection;
/// ``RawDatabase/open(path:)`` forgets them).
enum NameIndexSQL {
    private static let masks = Mutex<[ObjectIdentifier: Int64]>([:])

    static func reset() { masks.withLock { $0 = [:] } }

    static func mask(_ db: Database) throws -> Int64 {
        if let mask = masks.withLock({ $0[ObjectIdentifier(db)] }) { return mask }
        let mask = (Int64(1) << (try RawQueries.contactBits(db))) - 1
        masks.withLock { $0[ObjectIdentifier(db)] = mask }
        return mask
    }

    static func ordered(_ db: Database) throws -> Statement {
        try db.cachedStatement(
            sql: """
                SELECT c.id, c.givenName, c.familyName, c.sortFamily FROM contactNameFamily f
                JOIN contact c ON c.rowid = f.rowid & \(mask(db))
                WHERE contactNameFamily MATCH ? ORDER BY f.rowid LIMIT 51
                """)
    }

    /// Written without knowing the index's order: every match joined to its contact, then sorted.
    static func naive(_ db: Database) throws -> Statement {
        try db.cachedStatement(
            sql: """
                SELECT c.id, c.givenName, c.familyName FROM contactNameFamily f
                JOIN contact c ON c.rowid = f.rowid & \(mask(db))
                WHERE contactNameFamily MATCH ? ORDER BY c.sortFamily, c.id LIMIT 51
                """)
    }
}
