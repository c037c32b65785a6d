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
    /// 25 µs against a few). A WAL read never waits for a lock, so running it on a point connection here is CPU
    /// work like any other. When every point connection is busy the read waits for one of GRDB's readers
    /// asynchronously: a synchronous wait would hold a thread of the cooperative pool while the asynchronous reads
    /// that hold GRDB's readers need one to give them back (with every thread so held, the process stalls).
    func read<T>(_ body: (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        do {
            if let snapshot = ReadSnapshot.current, snapshot.serves(pointReaders) { return try snapshot.read(body) }
            // In memory: one serial queue, which no asynchronous read holds across a suspension.
            guard let pointReaders else { return try writer.read(body) }
            // The writer opens only here, when the point connections are busy: a book read by one request at a
            // time never opens it.
            let database = self.database
            return try await pointReaders.read(
                { db in
                    try db.beginTransaction(.deferred)
                    defer { try? db.rollback() }
                    return try body(db)
                }, otherwise: { try await Self.suspendingRead(try database.writer(), body) })
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
            func throughGRDB(_ db: Database) throws -> T {
                let statement = try db.cachedStatement(sql: sql).sqliteStatement
                defer { sqlite3_reset(statement) }
                return try body(statement)
            }
            if let snapshot = ReadSnapshot.current, snapshot.serves(pointReaders) {
                return try snapshot.read(throughGRDB)
            }
            guard let pointReaders else { return try database.writer().unsafeRead(throughGRDB) }
            return try await pointReaders.read(
                statement: key, sql: sql, body,
                otherwise: { try await Self.suspendingRead(try database.writer(), throughGRDB) })
        } catch {
            throw StoreError.mapped(error)
        }
    }

    /// GRDB's asynchronous read, for a body that is neither escaping nor `Sendable`: it runs before this returns,
    /// on one of GRDB's reader queues, while the caller waits.
    private static func suspendingRead<T>(_ writer: any DatabaseWriter, _ body: (Database) throws -> T) async throws
        -> T
    {
        // On a reader queue the task's values are not bound: the read allowance is carried over.
        let allowance = ReadAllowance.current
        return try await withoutActuallyEscaping(body) { body in
            let box = UncheckedSendable(body)
            return try await writer.read { db in
                UncheckedSendable(try ReadAllowance.$current.withValue(allowance) { try box.value(db) })
            }.value
        }
    }
}

/// A value handed to a closure that runs while its owner waits, so it is never used from two places at once.
private struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
