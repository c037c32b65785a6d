import CarnetStore

/// The tables of every book's records. Each leads its primary key and every index with `book_id`, so Citus can
/// distribute them by book, colocated, and a save, a fetch or a history read stays on one node.
///
/// Saves to one book are serialised by a lock on its `book_store` row, taken first in the save's transaction: the
/// commit's revision and its events' log positions are assigned under that lock, so the log's order is the commit
/// order and a reader's token never passes an event that is not yet visible.
package enum BookSchema {
    /// The column of a single-value string key: the key in snake case (`givenName` → `given_name`). Looked up, not
    /// spelled out on each call: every read builds its column list from it.
    static func column(_ key: ContactKey) -> String { columns[key] ?? snakeCase(key.rawValue) }

    private static let columns = Dictionary(
        uniqueKeysWithValues: ContactKey.allCases.map { ($0, snakeCase($0.rawValue)) })

    private static func snakeCase(_ name: String) -> String {
        var column = ""
        for character in name {
            if character.isUppercase {
                column += "_" + character.lowercased()
            } else {
                column.append(character)
            }
        }
        return column
    }

    /// A contact's rows in `contact_name_word`: each folded word of its names once.
    /// Each word once by its bytes, as PostgreSQL compares them: Swift's equality takes NFC and NFD spellings of a
    /// word for one, and kept one of them only, which a search spelled the other way then missed (an outside
    /// tester's find).
    static func nameWords(_ contact: Contact) -> [String] {
        var seen: Set<[UInt8]> = []
        return TextFolding.splitWords(ContactIndexing.names(contact)).filter { seen.insert(Array($0.utf8)).inserted }
    }

    static let v1 = PostgresMigrations.Migration(
        id: "books-v1",
        statements: [
            """
            CREATE TABLE book_store (
                book_id text PRIMARY KEY,
                store_id text COLLATE "C" NOT NULL,
                last_seq bigint NOT NULL DEFAULT 0,
                last_position bigint NOT NULL DEFAULT 0,
                oldest_position bigint NOT NULL DEFAULT 0,
                contact_count bigint NOT NULL DEFAULT 0,
                user_default_sort text
            )
            """,
            """
            CREATE TABLE save_transaction (
                book_id text NOT NULL,
                seq bigint NOT NULL,
                author text,
                timestamp double precision NOT NULL,
                PRIMARY KEY (book_id, seq)
            )
            """,
            "CREATE INDEX save_transaction_timestamp ON save_transaction (book_id, timestamp)",
            """
            CREATE TABLE container (
                book_id text NOT NULL,
                id text COLLATE "C" NOT NULL,
                name text COLLATE "C" NOT NULL,
                type smallint NOT NULL,
                is_default boolean NOT NULL DEFAULT false,
                revision bigint NOT NULL,
                created_at double precision NOT NULL,
                modified_at double precision NOT NULL,
                PRIMARY KEY (book_id, id)
            )
            """,
            """
            CREATE TABLE contact (
                book_id text NOT NULL,
                id text COLLATE "C" NOT NULL,
                container_id text COLLATE "C" NOT NULL,
                contact_type smallint NOT NULL DEFAULT 0,
            """ + ContactKey.stringKeys.map { "    \(column($0)) text NOT NULL DEFAULT ''," }.joined(separator: "\n")
                + """

                    birthday text,
                    non_gregorian_birthday text,
                    image_data bytea,
                    thumbnail_image_data bytea,
                    sort_given text COLLATE "C" NOT NULL,
                    sort_family text COLLATE "C" NOT NULL,
                    created_order bigint NOT NULL,
                    created_revision bigint NOT NULL,
                    revision bigint NOT NULL,
                    created_at double precision NOT NULL,
                    modified_at double precision NOT NULL,
                    PRIMARY KEY (book_id, id),
                    FOREIGN KEY (book_id, container_id) REFERENCES container (book_id, id)
                )
                """,
            "CREATE INDEX contact_container ON contact (book_id, container_id)",
            "CREATE INDEX contact_sort_given ON contact (book_id, sort_given, id)",
            "CREATE INDEX contact_sort_family ON contact (book_id, sort_family, id)",
            "CREATE UNIQUE INDEX contact_created ON contact (book_id, created_order)",
            // Every folded word of a contact's names: a name prefix is a range of this index.
            """
            CREATE TABLE contact_name_word (
                book_id text NOT NULL,
                word text COLLATE "C" NOT NULL,
                contact_id text COLLATE "C" NOT NULL,
                PRIMARY KEY (book_id, word, contact_id),
                FOREIGN KEY (book_id, contact_id) REFERENCES contact (book_id, id) ON DELETE CASCADE
            )
            """,
            "CREATE INDEX contact_name_word_contact ON contact_name_word (book_id, contact_id)",
            // The revision at which a key last changed, kept only for keys changed after the contact was added.
            """
            CREATE TABLE contact_key_revision (
                book_id text NOT NULL,
                contact_id text COLLATE "C" NOT NULL,
                key text NOT NULL,
                revision bigint NOT NULL,
                PRIMARY KEY (book_id, contact_id, key),
                FOREIGN KEY (book_id, contact_id) REFERENCES contact (book_id, id) ON DELETE CASCADE
            )
            """,
            """
            CREATE TABLE labeled_value (
                book_id text NOT NULL,
                id text COLLATE "C" NOT NULL,
                contact_id text COLLATE "C" NOT NULL,
                kind smallint NOT NULL,
                position integer NOT NULL,
                label text,
                value text NOT NULL,
                search_key text COLLATE "C",
                created_revision bigint NOT NULL,
                revision bigint NOT NULL,
                PRIMARY KEY (book_id, id),
                FOREIGN KEY (book_id, contact_id) REFERENCES contact (book_id, id) ON DELETE CASCADE
            )
            """,
            "CREATE INDEX labeled_value_contact ON labeled_value (book_id, contact_id, kind, position)",
            """
            CREATE INDEX labeled_value_search ON labeled_value (book_id, kind, search_key)
            WHERE search_key IS NOT NULL
            """,
            // The content a labeled value had before each change, for merges based on an older revision.
            """
            CREATE TABLE labeled_value_version (
                book_id text NOT NULL,
                value_id text COLLATE "C" NOT NULL,
                superseded_revision bigint NOT NULL,
                label text,
                value text NOT NULL,
                PRIMARY KEY (book_id, value_id, superseded_revision)
            )
            """,
            "CREATE INDEX labeled_value_version_revision ON labeled_value_version (book_id, superseded_revision)",
            // Identifiers of deleted records and values: never handed out again, and a merge's evidence.
            """
            CREATE TABLE book_retired_identifier (
                book_id text NOT NULL,
                id text COLLATE "C" NOT NULL,
                kind smallint NOT NULL,
                owner_id text COLLATE "C",
                revision bigint NOT NULL,
                PRIMARY KEY (book_id, id)
            )
            """,
            """
            CREATE TABLE contact_group (
                book_id text NOT NULL,
                id text COLLATE "C" NOT NULL,
                container_id text COLLATE "C" NOT NULL,
                name text NOT NULL,
                sort_name text COLLATE "C" NOT NULL,
                created_order bigint NOT NULL,
                created_revision bigint NOT NULL,
                name_revision bigint NOT NULL,
                revision bigint NOT NULL,
                created_at double precision NOT NULL,
                modified_at double precision NOT NULL,
                PRIMARY KEY (book_id, id),
                FOREIGN KEY (book_id, container_id) REFERENCES container (book_id, id)
            )
            """,
            "CREATE INDEX contact_group_container ON contact_group (book_id, container_id, sort_name, id)",
            "CREATE UNIQUE INDEX contact_group_created ON contact_group (book_id, created_order)",
            """
            CREATE TABLE group_member (
                book_id text NOT NULL,
                group_id text COLLATE "C" NOT NULL,
                contact_id text COLLATE "C" NOT NULL,
                group_order bigint NOT NULL,
                contact_order bigint NOT NULL,
                PRIMARY KEY (book_id, group_id, contact_id),
                FOREIGN KEY (book_id, group_id) REFERENCES contact_group (book_id, id) ON DELETE CASCADE,
                FOREIGN KEY (book_id, contact_id) REFERENCES contact (book_id, id) ON DELETE CASCADE
            )
            """,
            "CREATE INDEX group_member_contact ON group_member (book_id, contact_id)",
            // The full sync's order of memberships: both creation orders, which never change.
            "CREATE INDEX group_member_order ON group_member (book_id, group_order, contact_order)",
            """
            CREATE TABLE change_event (
                book_id text NOT NULL,
                position bigint NOT NULL,
                seq bigint NOT NULL,
                kind smallint NOT NULL,
                record_id text COLLATE "C" NOT NULL,
                other_id text COLLATE "C",
                changed_keys text,
                PRIMARY KEY (book_id, position)
            )
            """,
            "CREATE INDEX change_event_seq ON change_event (book_id, seq)",
        ])

    /// The tables holding a book's records, in an order that deletes cleanly (referencing tables first).
    package static let bookTables = [
        "change_event", "group_member", "contact_group", "book_retired_identifier", "labeled_value_version",
        "labeled_value", "contact_key_revision", "contact_name_prefix", "contact_name_prefix_count",
        "contact_name_word", "contact_link_name", "contact_link", "contact", "container", "save_transaction",
        "book_store",
    ]
}
