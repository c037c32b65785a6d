import GRDB

#if canImport(GRDBSQLite)
    import GRDBSQLite
#else
    import SQLite3
#endif

extension Database {
    /// Whether the database file was deleted or replaced since this connection opened it: SQLite's
    /// `SQLITE_FCNTL_HAS_MOVED` (the path no longer names the file the connection holds). `false` for an in-memory
    /// database, which has no file.
    var fileHasMoved: Bool {
        var moved: Int32 = 0
        let code = sqlite3_file_control(sqliteConnection, "main", SQLITE_FCNTL_HAS_MOVED, &moved)
        return code == SQLITE_OK && moved != 0
    }
}
