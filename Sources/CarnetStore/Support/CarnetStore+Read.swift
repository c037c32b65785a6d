import GRDB

extension CarnetStore {
    /// Runs a bounded read (a record, a page of at most 1,000, the groups, the containers) on the calling task.
    ///
    /// GRDB's asynchronous read hops to a reader queue and back, which costs more than such a read itself (about
    /// 25 µs against a few). A WAL read never waits for a lock, so running it here is CPU work like any other;
    /// unbounded reads (history, compaction) keep the asynchronous path and leave the cooperative pool free.
    func read<T>(_ body: (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        guard let pointReaders else { return try writer.read(body) }
        return try pointReaders.read({ db in
            try db.beginTransaction(.deferred)
            defer { try? db.rollback() }
            return try body(db)
        }, otherwise: { try writer.read(body) })
    }

    /// Runs a read made of one statement, outside a transaction: a statement is its own snapshot, and the
    /// `BEGIN`/`COMMIT` around it would cost as much as the statement. Only for one-statement bodies.
    func readOneStatement<T>(_ body: (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        guard let pointReaders else { return try writer.unsafeRead(body) }
        return try pointReaders.read(body, otherwise: { try writer.unsafeRead(body) })
    }
}
