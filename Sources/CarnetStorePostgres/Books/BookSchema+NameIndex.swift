import CarnetStore
import Logging
import PostgresNIO

/// A contact's rows in the name indexes: its folded words (`contact_name_word`, which any search can join) and
/// each word's first scalars with the contact's sort keys (`contact_name_prefix`), so a name search in a name
/// order reads one index range already in page order and stops after a page.
struct NameIndexEntry {
    /// Each folded word of the contact's names once.
    let words: [String]
    /// Each prefix of 1 to ``BookSchema/namePrefixScalars`` scalars of its words, once.
    let prefixes: [String]
    /// Its words, each after a space (" ann smith"), which a search checks its further words against without
    /// leaving the index row; `nil` beyond ``BookSchema/wordListBytes`` (an index row is at most a third of a
    /// page), where the search reads `contact_name_word` instead.
    let wordList: String?
    let sortGiven: String
    let sortFamily: String

    init(_ contact: Contact) {
        words = BookSchema.nameWords(contact)
        // Once each by bytes, as ``BookSchema/nameWords(_:)``: by Swift's equality, a contact with both spellings
        // of a prefix kept one row, and searches in a name order returned fewer contacts than their count.
        var seen: Set<[UInt8]> = []
        var prefixes: [String] = []
        for word in words {
            for length in 1...min(BookSchema.namePrefixScalars, word.unicodeScalars.count) {
                let prefix = BookSchema.namePrefix(word, scalars: length)
                if seen.insert(Array(prefix.utf8)).inserted { prefixes.append(prefix) }
            }
        }
        self.prefixes = prefixes.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        wordList = BookSchema.wordList(words)
        sortGiven = ContactIndexing.sortKey(contact, .givenName)
        sortFamily = ContactIndexing.sortKey(contact, .familyName)
    }
}

extension BookSchema {
    /// The longest prefix a `contact_name_prefix` row holds, in Unicode scalars (PostgreSQL's characters), as
    /// SQLite's name index keeps prefixes of 1 to 4. A longer query word reads its first four's rows and checks
    /// the rest against the word list.
    static let namePrefixScalars = 4

    /// A word's first `scalars` Unicode scalars: the prefix a row is stored under, and a query word looked up by.
    static func namePrefix(_ word: String, scalars: Int = namePrefixScalars) -> String {
        String(String.UnicodeScalarView(word.unicodeScalars.prefix(scalars)))
    }

    /// The longest word list an index row carries; with three 128-byte identifiers (`contact_link_name`'s rows
    /// include the member's) and a sort key of at most ``StoreLimits/sortKeyBytes``, a row stays under PostgreSQL's
    /// 2,704-byte limit, about 230 bytes to spare: raising either limit needs that margin checked again.
    static let wordListBytes = 512

    /// A contact's word list, as ``NameIndexEntry/wordList``: the same text the migration builds in SQL.
    static func wordList(_ words: [String]) -> String? {
        let list = words.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { " " + $0 }.joined()
        return list.utf8.count <= wordListBytes ? list : nil
    }

    /// Fills `contact_name_prefix` from `contact_name_word` for every contact that has words and no prefix rows:
    /// the same rows ``NameIndexEntry`` gives (`left` counts characters, which are scalars in UTF-8).
    static let fillNamePrefixes = """
        INSERT INTO contact_name_prefix (book_id, prefix, contact_id, sort_given, sort_family, words)
        SELECT DISTINCT w.book_id, left(w.word, n), w.contact_id, c.sort_given, c.sort_family,
            CASE WHEN octet_length(l.words) <= \(wordListBytes) THEN l.words END
        FROM contact_name_word w
        JOIN contact c ON c.book_id = w.book_id AND c.id = w.contact_id
        JOIN (SELECT book_id, contact_id, string_agg(' ' || word, '' ORDER BY word COLLATE "C") AS words
            FROM contact_name_word GROUP BY book_id, contact_id) l
            ON l.book_id = w.book_id AND l.contact_id = w.contact_id
        CROSS JOIN generate_series(1, \(namePrefixScalars)) AS n
        WHERE n <= length(w.word)
        ON CONFLICT DO NOTHING
        """

    /// Sets prefix counts from the prefix rows: every book's, or with `filter` (`WHERE book_id = $1`) one book's.
    static func countNamePrefixes(_ filter: String = "") -> String {
        """
        INSERT INTO contact_name_prefix_count (book_id, prefix, contacts)
        SELECT book_id, prefix, count(*) FROM contact_name_prefix \(filter) GROUP BY book_id, prefix
        ON CONFLICT (book_id, prefix) DO UPDATE SET contacts = excluded.contacts
        """
    }

    /// Name prefixes carrying the sort keys, for name searches in a name order (see ``NameIndexEntry``), and how
    /// many contacts have each prefix, for a search of several words to read the rarest word's rows.
    static let v2 = PostgresMigrations.Migration(
        id: "books-v2",
        statements: [
            """
            CREATE TABLE contact_name_prefix (
                book_id text NOT NULL,
                prefix text COLLATE "C" NOT NULL,
                contact_id text COLLATE "C" NOT NULL,
                sort_given text COLLATE "C" NOT NULL,
                sort_family text COLLATE "C" NOT NULL,
                words text COLLATE "C",
                PRIMARY KEY (book_id, contact_id, prefix),
                FOREIGN KEY (book_id, contact_id) REFERENCES contact (book_id, id) ON DELETE CASCADE
            )
            """,
            """
            CREATE TABLE contact_name_prefix_count (
                book_id text NOT NULL,
                prefix text COLLATE "C" NOT NULL,
                contacts bigint NOT NULL,
                PRIMARY KEY (book_id, prefix)
            )
            """,
            fillNamePrefixes,
            countNamePrefixes(),
            """
            CREATE INDEX contact_name_prefix_family
            ON contact_name_prefix (book_id, prefix, sort_family, contact_id) INCLUDE (words)
            """,
            """
            CREATE INDEX contact_name_prefix_given
            ON contact_name_prefix (book_id, prefix, sort_given, contact_id) INCLUDE (words)
            """,
        ])
}

extension PostgresConnection {
    /// Writes many contacts' name-index rows (``NameIndexEntry``), a statement per table: a save's run of adds and
    /// a book's import. Prefix counts are the caller's.
    func insertNameIndexRows(book: String, _ entries: [(contact: String, entry: NameIndexEntry)], logger: Logger)
        async throws
    {
        let words = entries.flatMap { item in item.entry.words.map { (word: $0, contact: item.contact) } }
        guard !words.isEmpty else { return }
        try await insertBatch(
            into: "contact_name_word", book: book,
            [.values("word", "text", words.map(\.word)), .values("contact_id", "text", words.map(\.contact))],
            logger: logger)
        let prefixes = entries.flatMap { item in item.entry.prefixes.map { (prefix: $0, item: item) } }
        try await insertBatch(
            into: "contact_name_prefix", book: book,
            [
                .values("prefix", "text", prefixes.map(\.prefix)),
                .values("contact_id", "text", prefixes.map(\.item.contact)),
                .values("sort_given", "text", prefixes.map(\.item.entry.sortGiven)),
                .values("sort_family", "text", prefixes.map(\.item.entry.sortFamily)),
                .optional("words", prefixes.map(\.item.entry.wordList)),
            ], logger: logger)
    }
}
