import CarnetStore
import GRDB

#if canImport(GRDBSQLite)
    import GRDBSQLite
#else
    import SQLite3
#endif

extension SQLiteStore {
    /// Runs a bounded read (a record, a page of at most 1,000, the groups, the containers) on the calling task.
    ///
    /// GRDB's asynchronous read hops to a reader queue and back, which costs more than such a read itself (about
    /// 25 µs against a few). A WAL read never waits for a lock, so running it here is CPU work like any other;
    /// unbounded reads (history, compaction) keep the asynchronous path and leave the cooperative pool free.
    func read<T>(_ body: (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        do {
            guard let pointReaders else { return try writer.read(body) }
            return try pointReaders.read(
                { db in
                    try db.beginTransaction(.deferred)
                    defer { try? db.rollback() }
                    return try body(db)
                }, otherwise: { try writer.read(body) })
        } catch {
            throw StoreError.mapped(error)
        }
    }

    /// Runs one statement, `sql`, outside a transaction: a statement is its own snapshot, and the `BEGIN`/`COMMIT`
    /// around it would cost as much as the statement. `body` steps the statement through SQLite's API; it is reset
    /// afterwards, so its read ends even if `body` stops early.
    func readStatement<T>(_ key: StatementKey, _ sql: String, _ body: (SQLiteStatement) throws -> T) async throws -> T {
        try Task.checkCancellation()
        // Locals, not `self`: a closure capturing the store copies (and retains) all of its fields.
        let (database, pointReaders) = (self.database, self.pointReaders)
        do {
            return try Self.readStatementUnmapped(key, sql, body, database: database, pointReaders: pointReaders)
        } catch {
            throw StoreError.mapped(error)
        }
    }

    private static func readStatementUnmapped<T>(
        _ key: StatementKey, _ sql: String, _ body: (SQLiteStatement) throws -> T, database: StoreDatabase,
        pointReaders: PointReaders?
    ) throws -> T {
        try withoutActuallyEscaping(body) { body in
            let throughGRDB = {
                try database.writer().unsafeRead { db in
                    let statement = try db.cachedStatement(sql: sql).sqliteStatement
                    defer { sqlite3_reset(statement) }
                    return try body(statement)
                }
            }
            guard let pointReaders else { return try throughGRDB() }
            return try pointReaders.read(statement: key, sql: sql, body, otherwise: throughGRDB)
        }
    }
}
