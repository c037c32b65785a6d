import CarnetStore
import GRDB

extension StoreError {
    /// The one place SQLite's failures become store errors, so no GRDB type leaves the store: busy and locked are
    /// ``Code/unavailable`` (retry), a full disk or database ``Code/storageFull``, I/O errors, damaged or read-only
    /// files ``Code/storageFailure``, an interrupted statement `CancellationError`. Any other error is returned as
    /// it is: store errors pass through, and the rest (misuse, a constraint the save code does not expect) is a bug
    /// the edge logs as internal.
    static func mapped(_ error: any Error) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        switch error.resultCode {
        case .SQLITE_INTERRUPT:
            // Only GRDB interrupts a connection, when the task using it is cancelled (its client has gone). GRDB
            // turns that into `CancellationError` for the statements it steps, not for those stepped straight
            // through SQLite (``SQLiteSteppedRows``), and an edge that saw SQLite's code logged a bug.
            return CancellationError()
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return StoreError.unavailable("The database is busy")
        case .SQLITE_FULL:
            return StoreError(.storageFull, "The database is full (disk or size limit); nothing was written.")
        case .SQLITE_IOERR, .SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PROTOCOL,
            .SQLITE_NOLFS:
            return StoreError(.storageFailure, "The database could not be read or written (\(error.resultCode)).")
        default:
            return error
        }
    }
}

extension SQLiteStore {
    /// An asynchronous read of the database, with its failures as store errors.
    func databaseRead<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        do {
            if let snapshot = ReadSnapshot.current, snapshot.serves(pointReaders) {
                return try await snapshot.suspendingRead(body)
            }
            return try await writer.read(body)
        } catch {
            throw StoreError.mapped(error)
        }
    }

    /// Any other database access, with its failures as store errors.
    func mappingDatabaseErrors<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch { throw StoreError.mapped(error) }
    }

    /// A write transaction, with its failures as store errors. On a ``BackgroundExecutor``'s thread it runs
    /// there, as a save does (``writerAccess(_:)``).
    func databaseWrite<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await mappingDatabaseErrors {
            try await writerAccess { db in
                var result: T?
                try db.inTransaction {
                    result = try body(db)
                    return .commit
                }
                // inTransaction returns only after its closure ran, so this holds; a typed error, never a trap.
                guard let result else { throw StoreError(.storageFailure, "The transaction ended without a result") }
                return result
            }
        }
    }

    /// The writer, outside any transaction. On a ``BackgroundExecutor``'s thread (an import) it runs right there:
    /// GRDB's synchronous write runs its closure on the calling thread, so the inserts keep that thread's low
    /// priority instead of taking a writer thread's full share of a core from the requests beside them.
    func writerAccess<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let writer = try self.writer
        if BackgroundExecutor.runsOnCurrentThread { return try Self.writeOnThisThread(writer, body) }
        return try await writer.writeWithoutTransaction(body)
    }

    /// Synchronous, so that it calls GRDB's blocking write (an async context would pick the async one).
    private static func writeOnThisThread<T>(_ writer: any DatabaseWriter, _ body: (Database) throws -> T) throws -> T {
        try writer.writeWithoutTransaction(body)
    }
}
