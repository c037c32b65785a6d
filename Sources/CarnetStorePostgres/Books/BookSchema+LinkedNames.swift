extension BookSchema {
    /// The names of linked contacts that do not stand for their unified contact, filed where it stands.
    ///
    /// A unified search finds a unified contact through any member, and the contact stands in a page where its
    /// name-preferred member stands. Each member that is not name-preferred has a row per name prefix (its own rows
    /// of `contact_name_prefix`) under the name-preferred member's identifier and sort keys. So a search reads the
    /// unified contacts it finds through other members from one index range already in page order and stops after a
    /// page, as the plain search does: it no longer reads every hidden member of the book for each search.
    ///
    /// A save rewrites the rows of each unified contact whose members, preferences or member names it changed,
    /// once, after its operations (``PostgresSaveTransaction/refreshLinkedNames()``); a copied book gets them at
    /// its end (``BookImport/finish()``).
    static let v5 = PostgresMigrations.Migration(
        id: "books-v5",
        statements: [
            """
            CREATE TABLE contact_link_name (
                book_id text NOT NULL,
                member_id text COLLATE "C" NOT NULL,
                prefix text COLLATE "C" NOT NULL,
                unified_id text COLLATE "C" NOT NULL,
                contact_id text COLLATE "C" NOT NULL,
                sort_given text COLLATE "C" NOT NULL,
                sort_family text COLLATE "C" NOT NULL,
                words text COLLATE "C",
                PRIMARY KEY (book_id, member_id, prefix),
                FOREIGN KEY (book_id, member_id) REFERENCES contact (book_id, id) ON DELETE CASCADE
            )
            """,
            "CREATE INDEX contact_link_name_unified ON contact_link_name (book_id, unified_id)",
            """
            CREATE INDEX contact_link_name_family
            ON contact_link_name (book_id, prefix, sort_family, contact_id) INCLUDE (words, member_id)
            """,
            """
            CREATE INDEX contact_link_name_given
            ON contact_link_name (book_id, prefix, sort_given, contact_id) INCLUDE (words, member_id)
            """,
            fillLinkedNames(""),
        ])

    /// Writes the rows of the unified contacts `filter` picks (a condition on `lh`, the hidden member's link row;
    /// empty for every book) from their members' prefix rows and the name-preferred members' sort keys.
    static func fillLinkedNames(_ filter: String) -> String {
        """
        INSERT INTO contact_link_name
            (book_id, member_id, prefix, unified_id, contact_id, sort_given, sort_family, words)
        SELECT lh.book_id, lh.contact_id, np.prefix, lh.unified_id, lp.contact_id, s.sort_given, s.sort_family,
            np.words
        FROM contact_link lh
        JOIN contact_link lp ON lp.book_id = lh.book_id AND lp.unified_id = lh.unified_id AND lp.preferred_for_name
        JOIN contact s ON s.book_id = lp.book_id AND s.id = lp.contact_id
        JOIN contact_name_prefix np ON np.book_id = lh.book_id AND np.contact_id = lh.contact_id
        WHERE NOT lh.preferred_for_name \(filter.isEmpty ? "" : "AND " + filter)
        ON CONFLICT (book_id, member_id, prefix) DO UPDATE SET unified_id = excluded.unified_id,
            contact_id = excluded.contact_id, sort_given = excluded.sort_given, sort_family = excluded.sort_family,
            words = excluded.words
        """
    }
}
