import CarnetStore
import Logging
import PostgresNIO

extension BookSchema {
    /// Names refolded composed: folding composes text (NFC) first since this version, so a name stored decomposed
    /// ("한국" as conjoining jamo) is found by its precomposed spelling, and name rows hold the folded names split
    /// into words, not folded again. The contacts
    /// whose keys that changes get their sort keys and name rows, their books their prefix counts and unified
    /// contacts' rows, and groups their sort names computed again, as a save of this version writes them
    /// (``NameIndexEntry``).
    static let v7 = PostgresMigrations.Migration(
        id: "books-v7", statements: [], step: { connection, logger in try await ComposedRefold.run(connection, logger) }
    )
}

/// The work of ``BookSchema/v7``.
enum ComposedRefold {
    private static let keys = ContactIndexing.sourceKeys

    static func run(_ connection: PostgresConnection, _ logger: Logger) async throws {
        // Every book's save lock, as saves take it: an instance of the version before, still serving in a rolling
        // upgrade, cannot rename a contact between the read below and its rows written with the old name.
        try await connection.rows("SELECT book_id FROM book_store ORDER BY book_id FOR UPDATE", logger: logger)
        var books: Set<String> = []
        for (book, contacts) in try await uncomposedContacts(connection, logger) {
            books.insert(book)
            let ids = contacts.map(\.identifier)
            let entries = contacts.map { (contact: $0.identifier, entry: NameIndexEntry($0)) }
            try await connection.rows(
                """
                UPDATE contact c SET sort_given = u.sort_given, sort_family = u.sort_family
                FROM unnest(\(ids)::text[], \(entries.map(\.entry.sortGiven))::text[],
                    \(entries.map(\.entry.sortFamily))::text[]) AS u(id, sort_given, sort_family)
                WHERE c.book_id = \(book) AND c.id = u.id
                """, logger: logger)
            try await connection.rows(
                "DELETE FROM contact_name_word WHERE book_id = \(book) AND contact_id = ANY(\(ids))", logger: logger)
            try await connection.rows(
                "DELETE FROM contact_name_prefix WHERE book_id = \(book) AND contact_id = ANY(\(ids))", logger: logger)
            try await connection.insertNameIndexRows(book: book, entries, logger: logger)
        }
        for book in books.sorted() {
            try await connection.rows(
                "UPDATE contact_name_prefix_count SET contacts = 0 WHERE book_id = \(book)", logger: logger)
            try await connection.rows(
                PostgresQuery(unsafeSQL: BookSchema.countNamePrefixes("WHERE book_id = $1"), binds: binds(book)),
                logger: logger)
            try await connection.rows("DELETE FROM contact_link_name WHERE book_id = \(book)", logger: logger)
            try await connection.rows(
                PostgresQuery(unsafeSQL: BookSchema.fillLinkedNames("lh.book_id = $1"), binds: binds(book)),
                logger: logger)
        }
        try await refoldGroups(connection, logger)
    }

    private static func binds(_ book: String) -> PostgresBindings {
        var bindings = PostgresBindings()
        bindings.append(book)
        return bindings
    }

    /// The contacts whose keys today's folding changes, by book: of those with a name that is not ASCII
    /// (`octet_length` counts bytes, `length` characters), the ones ``ContactIndexing/isFoldedDifferently(_:)`` picks.
    private static func uncomposedContacts(_ connection: PostgresConnection, _ logger: Logger) async throws
        -> [String: [Contact]]
    {
        let columns = keys.map { BookSchema.column($0) }
        let rows = try await connection.rows(
            PostgresQuery(
                unsafeSQL: """
                    SELECT book_id, id, \(columns.joined(separator: ", ")) FROM contact
                    WHERE \(columns.map { "octet_length(\($0)) <> length(\($0))" }.joined(separator: " OR "))
                    """), logger: logger)
        var found: [String: [Contact]] = [:]
        let keySet = ContactKeySet(keys)
        for try await row in rows {
            let cells = Array(row)
            var contact = Contact(fetched: try cells[1].decode(String.self), keys: keySet)
            for (offset, key) in keys.enumerated() {
                guard let slot = key.stringSlot else { continue }
                contact.values.strings[slot] = try cells[2 + offset].decode(String?.self) ?? ""
            }
            if ContactIndexing.isFoldedDifferently(contact) {
                found[try cells[0].decode(String.self), default: []].append(contact)
            }
        }
        return found
    }

    private static func refoldGroups(_ connection: PostgresConnection, _ logger: Logger) async throws {
        var changed: [(book: String, id: String, sortName: String)] = []
        let rows = try await connection.rows(
            "SELECT book_id, id, name FROM contact_group WHERE octet_length(name) <> length(name)", logger: logger
        ).decode((String, String, String).self)
        for try await (book, id, name) in rows where GroupIndexing.isFoldedDifferently(name) {
            changed.append((book, id, GroupIndexing.sortName(name)))
        }
        guard !changed.isEmpty else { return }
        try await connection.rows(
            """
            UPDATE contact_group g SET sort_name = u.sort_name
            FROM unnest(\(changed.map(\.book))::text[], \(changed.map(\.id))::text[],
                \(changed.map(\.sortName))::text[]) AS u(book_id, id, sort_name)
            WHERE g.book_id = u.book_id AND g.id = u.id
            """, logger: logger)
    }
}
