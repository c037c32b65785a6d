import CarnetStore
import GRDB

/// A stored count of contacts, so the contacts-per-book quota is checked in constant time: it was a `count(*)` of
/// the whole table on every save that added a contact, once a book's highest rowid passed the quota (a large book
/// with a history of deletes).
///
/// Saves keep it: ``SaveTransaction`` adds the contacts it inserted and subtracts those it deleted, once per
/// commit; nothing else inserts or deletes contacts.
enum Migration007 {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE recordCount (kind TEXT PRIMARY KEY NOT NULL, value INTEGER NOT NULL) WITHOUT ROWID;
                INSERT INTO recordCount (kind, value) SELECT 'contact', count(*) FROM contact;
                """)
    }
}
