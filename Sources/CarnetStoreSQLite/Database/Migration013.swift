import GRDB

/// The name index split into the words both backends search by (``NameIndex/indexedText(_:)``): the four name
/// tables tokenize with `ascii` instead of `unicode61`, which split words at letters' marks and joiners and not at
/// private-use characters, so a search found other contacts than on PostgreSQL.
///
/// FTS5 cannot change a table's tokenizer in place: the tables (and the vocabulary tables that read the contact
/// ones) are recreated with their other options unchanged and refilled, the contacts' rows by
/// `FoldedKeys.rebuildNameIndex`, the unified contacts' by `LinkedNameIndex` from their members. Contacts, sort keys,
/// index rowids, history and cursors do not change.
enum Migration013 {
    static func migrate(_ db: Database) throws {
        let options = "names, content = '', columnsize = 0, detail = none, prefix = '1 2 3 4', tokenize = 'ascii'"
        try db.execute(
            sql: """
                DROP TABLE contactNameFamily_terms;
                DROP TABLE contactNameGiven_terms;
                DROP TABLE contactNameFamily;
                DROP TABLE contactNameGiven;
                DROP TABLE contactNameFamilyLinked;
                DROP TABLE contactNameGivenLinked;

                CREATE VIRTUAL TABLE contactNameFamily USING fts5(\(options));
                CREATE VIRTUAL TABLE contactNameGiven USING fts5(\(options));
                CREATE VIRTUAL TABLE contactNameFamilyLinked USING fts5(\(options));
                CREATE VIRTUAL TABLE contactNameGivenLinked USING fts5(\(options));
                CREATE VIRTUAL TABLE contactNameFamily_terms USING fts5vocab(contactNameFamily, row);
                CREATE VIRTUAL TABLE contactNameGiven_terms USING fts5vocab(contactNameGiven, row);
                """)
        try FoldedKeys.rebuildNameIndex(db)
        // The kept texts and rowids are what to delete the old rows by; the new tables hold none of them.
        try db.execute(sql: "DELETE FROM contactLinkName")
        try LinkedNameIndex.refresh(db, Set(String.fetchAll(db, sql: "SELECT DISTINCT unifiedId FROM contactLink")))
    }
}
