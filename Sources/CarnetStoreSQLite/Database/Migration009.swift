import GRDB

/// Linked contacts (``LinkGroup``): one row per member of a unified contact, and on the contact a flag for the
/// members that do not stand for their unified contact, so a unified page filters them on the rows it reads
/// anyway. The partial index counts and finds those members without reading the table; a book without links
/// answers from it at once.
enum Migration009 {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE contact ADD COLUMN linkHidden INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX contact_linkHidden ON contact(linkHidden) WHERE linkHidden;
                CREATE TABLE contactLink (
                    contactRowid INTEGER PRIMARY KEY REFERENCES contact(rowid) ON DELETE CASCADE,
                    unifiedId TEXT NOT NULL,
                    preferredForName INTEGER NOT NULL,
                    preferredForImage INTEGER NOT NULL
                );
                CREATE INDEX contactLink_unified ON contactLink(unifiedId);
                """)
    }
}
