import CarnetStore
import PostgresNIO

/// A name search in a name order, read from `contact_name_prefix` (see ``NameIndexEntry``): one word's prefix rows
/// come from the index already in page order, the other words are checked against each row's word list, so a page
/// costs about its own size whether a few contacts match or half the book. The further conditions of the predicate
/// (container, group, email, phone, identifiers) are checked on the contact each row joins.
struct PostgresNameSearch {
    /// The query's folded words, each once.
    let words: [String]
    /// The word whose prefix rows the search reads: the one whose prefix the fewest contacts have once ranked by
    /// the counts (``ranked(by:)``), else the longest.
    let driver: String
    /// The words each row must also match, checked on its word list; includes the driver when it is longer than
    /// a stored prefix.
    let checked: [String]

    /// Whose prefix rows the search reads.
    let source: Source

    enum Source: Equatable {
        /// The contacts' own (`contact_name_prefix`): a page of the contacts whose names match.
        case contacts
        /// The rows of linked contacts that do not stand for their unified contact (`contact_link_name`,
        /// ``BookSchema/v5``), filed under the member that does: a page of those standing members, each once,
        /// for ``ContactPredicate/LinkedMembers/standingForOthersMatching(_:)`` of a name and the unified
        /// contact's own conditions, which the standing member (`c`) meets.
        case linkedMembers(ContactPredicate)
    }

    /// `nil` when the order is not a name order or the predicate has no name words (the general path's cases).
    init?(_ predicate: ContactPredicate, order: ContactSortOrder) {
        guard order == .givenName || order == .familyName else { return nil }
        let (name, source): (String, Source)
        if let own = predicate.matchingName {
            (name, source) = (own, .contacts)
        } else if case .standingForOthersMatching(let inner) = predicate.linkedMembers, let other = inner.matchingName,
            inner.memberConditions.count == 1
        {
            // The name alone of the member conditions: a name met by the standing member and an email by another
            // member is no row of the linked names, so such searches take the general path.
            (name, source) = (other, .linkedMembers(inner.ownConditions))
        } else {
            return nil
        }
        self.init(words: Set(TextFolding.queryWords(name)).sorted(), prefixCounts: [:], source: source)
    }

    private init?(words: [String], prefixCounts: [String: Int64], source: Source) {
        let rank = { (word: String) in
            (prefixCounts[BookSchema.namePrefix(word)] ?? .max, -word.unicodeScalars.count, word)
        }
        guard let driver = words.min(by: { rank($0) < rank($1) }) else { return nil }
        self.words = words
        self.source = source
        self.driver = driver
        let driverIsExact = driver.unicodeScalars.count <= BookSchema.namePrefixScalars
        checked = words.filter { !driverIsExact || $0 != driver }
    }

    /// The same search driven by the word whose prefix the fewest contacts have (``prefixCounts(_:store:cache:)``).
    func ranked(by prefixCounts: [String: Int64]) -> PostgresNameSearch {
        PostgresNameSearch(words: words, prefixCounts: prefixCounts, source: source) ?? self
    }

    /// How many contacts have each word's prefix (0 for none), for a search of several words to choose its driver:
    /// from `cache` while fresh, else read (and remembered).
    func prefixCounts(_ connection: PostgresConnection, store: PostgresStore, cache: NamePrefixCounts) async throws
        -> [String: Int64]
    {
        let prefixes = Set(words.map { BookSchema.namePrefix($0) })
        let now = ContinuousClock.now
        var counts = cache.cached(book: store.bookID, prefixes: prefixes, now: now)
        let missing = prefixes.subtracting(counts.keys)
        guard !missing.isEmpty else { return counts }
        var read = Dictionary(uniqueKeysWithValues: missing.map { ($0, Int64(0)) })
        let rows = try await connection.rows(
            """
            SELECT prefix, contacts FROM contact_name_prefix_count
            WHERE book_id = \(store.bookID) AND prefix = ANY(\(Array(missing)))
            """, logger: store.logger)
        for try await (prefix, contacts) in rows.decode((String, Int64).self) {
            read[prefix] = contacts
        }
        cache.remember(book: store.bookID, counts: read, read: now)
        counts.merge(read) { _, new in new }
        return counts
    }

    /// The prefix row's sort column for the order.
    static func sortColumn(_ order: ContactSortOrder) -> String {
        order == .givenName ? "p.sort_given" : "p.sort_family"
    }

    /// The page's statement: prefix rows joined to their contacts, `others` (conditions on `c`, bound in `sql`)
    /// applied to the contact (the book's among them), the cursor and the order on the prefix row's columns.
    func query(
        select: String, order: ContactSortOrder, book: String, others: [String], cursor: ContactCursor?,
        backward: Bool, limit: Int, _ sql: inout SQLBuilder
    ) throws -> PostgresQuery? {
        let sortColumn = Self.sortColumn(order)
        let prefix = BookSchema.namePrefix(driver)
        let bookParameter = try sql.bind(book)
        var conditions = ["p.book_id = \(bookParameter)", "p.prefix = \(try sql.bind(prefix))"]
        var (table, distinct, wordOwner) = ("contact_name_prefix", "", "p.contact_id")
        if case .linkedMembers(let predicate) = source {
            // Two members of one unified contact may both match: the standing member is listed once.
            (table, distinct, wordOwner) = (
                "contact_link_name", "DISTINCT ON (\(sortColumn), p.contact_id) ", "p.member_id"
            )
            // The unified contact's own conditions (``init(_:order:)`` leaves no other), met by the standing member.
            if predicate != ContactPredicate() {
                guard let own = try PostgresContactFetch.conditions(predicate, book: book, &sql, on: "c") else {
                    return nil
                }
                conditions += own
            }
        }
        if !checked.isEmpty {
            let listed = try checked.map { "strpos(p.words, \(try sql.bind(" " + $0))) > 0" }
            // A contact whose word list was too long for its index rows has its words read from their own table.
            conditions.append(
                """
                (CASE WHEN p.words IS NOT NULL THEN \(listed.joined(separator: " AND "))
                ELSE (SELECT count(DISTINCT q.word) FROM unnest(\(try sql.bind(checked))::text[]) AS q(word)
                    JOIN contact_name_word w ON w.book_id = p.book_id AND w.contact_id = \(wordOwner)
                        AND w.word >= q.word COLLATE "C" AND w.word < (q.word || chr(1114111)) COLLATE "C"
                    ) = \(try sql.bind(Int64(checked.count))) END)
                """)
        }
        conditions += others
        if let cursor {
            conditions.append(
                """
                (\(sortColumn), p.contact_id) \(backward ? "<" : ">") \
                (\(try sql.bind(cursor.sortKey)), \(try sql.bind(cursor.identifier)))
                """)
        }
        let direction = backward ? "DESC" : "ASC"
        let limitParameter = try sql.bind(limit)
        return sql.query(
            """
            SELECT \(distinct)\(select), \(sortColumn) FROM \(table) p
            JOIN contact c ON c.book_id = p.book_id AND c.id = p.contact_id
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY \(sortColumn) \(direction), p.contact_id \(direction) LIMIT \(limitParameter)
            """)
    }
}
