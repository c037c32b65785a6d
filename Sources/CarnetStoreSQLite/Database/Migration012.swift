import GRDB

/// Name-index buckets that keep the sort order (``NameIndex/bucket(_:)``): v6–v11 packed on past a digit, a space,
/// punctuation or a non-ASCII byte, so the bytes after it could order two buckets against their keys, and an
/// ordered name search skipped contacts from one page to the next.
///
/// Recomputes every contact's `ftsGiven` and `ftsFamily` and refills both name tables as v6 does, then rewrites
/// every unified contact's rows, which stand under their name-preferred members' rowids (``LinkedNameIndex``). Sort
/// keys, records, revisions and history do not change, nor do pagination cursors, which hold no index rowid.
enum Migration012 {
    static func migrate(_ db: Database) throws {
        try Migration006.recomputeIndexRowids(db)
        try FoldedKeys.rebuildNameIndex(db)
        let unified = try String.fetchAll(db, sql: "SELECT DISTINCT unifiedId FROM contactLink")
        try LinkedNameIndex.refresh(db, Set(unified))
    }
}
