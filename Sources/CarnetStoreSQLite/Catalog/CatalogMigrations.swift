import CarnetStore
import GRDB

/// The catalog's schema history. Append-only: a shipped migration is never edited.
///
/// The catalog holds who exists and who may open what; each book's records live in a database of their own.
enum CatalogMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1", migrate: v1)
        migrator.registerMigration("v2", migrate: v2)
        migrator.registerMigration("v3", migrate: v3)
        return migrator
    }

    private static func v1(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE catalogInfo (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;

                CREATE TABLE principal (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL UNIQUE,
                    kind TEXT NOT NULL,
                    isAdmin INTEGER NOT NULL DEFAULT 0,
                    createdAt REAL NOT NULL,
                    disabledAt REAL,
                    defaultBookId TEXT
                );

                CREATE TABLE addressBook (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    ownerId TEXT NOT NULL REFERENCES principal(id) ON DELETE CASCADE,
                    fileName TEXT NOT NULL UNIQUE,
                    createdAt REAL NOT NULL
                );
                CREATE INDEX addressBook_owner ON addressBook(ownerId);

                CREATE TABLE bookGrant (
                    bookId TEXT NOT NULL REFERENCES addressBook(id) ON DELETE CASCADE,
                    principalId TEXT NOT NULL REFERENCES principal(id) ON DELETE CASCADE,
                    access TEXT NOT NULL,
                    grantedAt REAL NOT NULL,
                    PRIMARY KEY (bookId, principalId)
                ) WITHOUT ROWID;
                CREATE INDEX bookGrant_principal ON bookGrant(principalId);

                -- Identifiers handed out once: a deleted principal's or book's id is never given again.
                CREATE TABLE retiredIdentifier (id TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;

                CREATE TABLE accessToken (
                    id TEXT PRIMARY KEY NOT NULL,
                    principalId TEXT NOT NULL REFERENCES principal(id) ON DELETE CASCADE,
                    name TEXT NOT NULL,
                    secretHash BLOB NOT NULL,
                    scopes TEXT NOT NULL,
                    authors TEXT NOT NULL,
                    bookIds TEXT,
                    createdAt REAL NOT NULL,
                    revokedAt REAL
                );
                CREATE INDEX accessToken_principal ON accessToken(principalId);
                """)
    }

    /// Whether each book's file was made (at its first open), so that a listed book whose file is gone fails to open
    /// instead of coming back empty, with a new store identifier that tells every replica to drop everything.
    /// `NULL` for books listed before this migration, until the folder is next opened (``BookFileLedger``).
    private static func v2(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE addressBook ADD COLUMN fileMade INTEGER")
    }

    /// Where each book's history ended when it was last closed (``HistoryEnd``).
    private static func v3(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE addressBook ADD COLUMN historyEnd TEXT")
    }
}
