import CarnetStore
import GRDB

/// The search-key index with the contact's rowid: `duplicateCandidates` counts the contacts of every email and phone
/// key (`GROUP BY kind, searchKey HAVING count(DISTINCT contactRowid) ...`), which over `labeledValue_search` read
/// the table row of each of a book's values (1.2 s at 100,000 contacts) and over this index reads the index only
/// (0.16 s). `labeledValue_search` stays: this one also serves its lookups, and dropping it is left to a later
/// migration once no query plan test names it.
enum Migration008 {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE INDEX labeledValue_searchContact ON labeledValue(kind, searchKey, contactRowid)
                WHERE searchKey IS NOT NULL
                """)
    }
}
