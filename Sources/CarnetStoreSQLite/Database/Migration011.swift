import GRDB

/// Drops `labeledValue_search`: `labeledValue_searchContact` (v8) has the same columns first and the same condition,
/// so it serves every lookup the older index served, and each email and phone a save writes went into both (about a
/// twentieth of a vCard import's time).
enum Migration011 {
    static func migrate(_ db: Database) throws {
        try db.execute(sql: "DROP INDEX IF EXISTS labeledValue_search")
    }
}
