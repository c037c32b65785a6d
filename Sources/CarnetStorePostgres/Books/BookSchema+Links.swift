extension BookSchema {
    /// Linked contacts (``LinkGroup``): a row per member of a unified contact, and on the contact a flag for the
    /// members that do not stand for their unified contact, which a unified page filters on the rows it reads
    /// anyway; the partial index counts them and tells a book without links at once.
    static let v4 = PostgresMigrations.Migration(
        id: "books-v4",
        statements: [
            "ALTER TABLE contact ADD COLUMN link_hidden boolean NOT NULL DEFAULT false",
            "CREATE INDEX contact_link_hidden ON contact (book_id) WHERE link_hidden",
            """
            CREATE TABLE contact_link (
                book_id text NOT NULL,
                contact_id text COLLATE "C" NOT NULL,
                unified_id text COLLATE "C" NOT NULL,
                preferred_for_name boolean NOT NULL,
                preferred_for_image boolean NOT NULL,
                PRIMARY KEY (book_id, contact_id),
                FOREIGN KEY (book_id, contact_id) REFERENCES contact (book_id, id) ON DELETE CASCADE
            )
            """,
            "CREATE INDEX contact_link_unified ON contact_link (book_id, unified_id)",
        ])
}
