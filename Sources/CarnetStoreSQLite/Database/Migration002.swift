import CarnetStore
import GRDB

/// Term listings of the name indexes (fts5vocab), so a long query word can be turned into the few whole terms it
/// prefixes: FTS5 merges a prefix's doclists eagerly, but reads an OR of terms lazily, in rowid order.
enum Migration002 {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE contactNameFamily_terms USING fts5vocab(contactNameFamily, row);
                CREATE VIRTUAL TABLE contactNameGiven_terms USING fts5vocab(contactNameGiven, row);
                """)
    }
}
