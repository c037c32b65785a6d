import GRDB

/// The name index of unified contacts (``LinkedNameIndex``): two FTS5 tables like the contact name index, and the
/// text and rowids each unified contact's rows were written with (a contentless table drops a row only when given
/// them), and how many members' names the text holds.
enum Migration010 {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE contactNameFamilyLinked USING fts5(
                    names, content = '', columnsize = 0, detail = none, prefix = '1 2 3 4',
                    tokenize = 'unicode61 remove_diacritics 2'
                );
                CREATE VIRTUAL TABLE contactNameGivenLinked USING fts5(
                    names, content = '', columnsize = 0, detail = none, prefix = '1 2 3 4',
                    tokenize = 'unicode61 remove_diacritics 2'
                );
                CREATE TABLE contactLinkName (
                    unifiedId TEXT PRIMARY KEY,
                    ftsGiven INTEGER NOT NULL,
                    ftsFamily INTEGER NOT NULL,
                    names TEXT NOT NULL,
                    members INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
        try LinkedNameIndex.refresh(db, Set(String.fetchAll(db, sql: "SELECT DISTINCT unifiedId FROM contactLink")))
    }
}
