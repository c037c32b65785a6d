import CarnetStore
import GRDB

/// A four-character prefix index on the name search tables. A four-letter word used to be read as the OR of the
/// terms it starts (through the fts5vocab tables of v2), which merges one doclist per term: a very common family
/// name ("müll": Müller, Müllner, Mülling…, 5,000 matches in a million contacts) cost 3 ms and more. With
/// `prefix = '1 2 3 4'` FTS5 reads such a word from one prefix doclist, lazily.
///
/// FTS5 cannot change a table's prefix option in place, so both tables are recreated with the same other options
/// (and the fts5vocab tables that read them, with v2's definitions) and refilled from the contacts by
/// `FoldedKeys.rebuildNameIndex`, the code v4 rebuilds them with, in index row order. Contacts, their sort keys and
/// name-index rowids do not change.
///
/// Runs with foreign keys on (`.immediate`): the tables it replaces hold no reference, and a deferred check would
/// read every table of a large store again.
enum Migration005 {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                DROP TABLE contactNameFamily_terms;
                DROP TABLE contactNameGiven_terms;
                DROP TABLE contactNameFamily;
                DROP TABLE contactNameGiven;

                CREATE VIRTUAL TABLE contactNameFamily USING fts5(
                    names, content = '', columnsize = 0, detail = none, prefix = '1 2 3 4',
                    tokenize = 'unicode61 remove_diacritics 2'
                );
                CREATE VIRTUAL TABLE contactNameGiven USING fts5(
                    names, content = '', columnsize = 0, detail = none, prefix = '1 2 3 4',
                    tokenize = 'unicode61 remove_diacritics 2'
                );
                CREATE VIRTUAL TABLE contactNameFamily_terms USING fts5vocab(contactNameFamily, row);
                CREATE VIRTUAL TABLE contactNameGiven_terms USING fts5vocab(contactNameGiven, row);
                """)
        try FoldedKeys.rebuildNameIndex(db)
    }
}
