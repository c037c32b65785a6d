import CarnetStore
import PostgresNIO
import Synchronization

/// One state of the database for several reads (``PostgresStore/withConsistentReads(_:)``): one connection, held
/// for the duration, in a `REPEATABLE READ, READ ONLY` transaction, which sees the commits before its first
/// statement and none after.
///
/// The reads of the task that set it (``current``) run on it. A task started inside it inherits ``current``, so a
/// read after its end, or after a failed statement (which aborts the transaction), goes the usual way.
final class PostgresSnapshot: Sendable {
    @TaskLocal static var current: PostgresSnapshot?

    let connection: PostgresConnection
    private let database: ObjectIdentifier
    private let usable = Atomic<Bool>(true)

    init(_ connection: PostgresConnection, of database: PostgresDatabase) {
        self.connection = connection
        self.database = ObjectIdentifier(database)
    }

    /// Whether reads of `database` run in it.
    func serves(_ database: PostgresDatabase) -> Bool {
        belongs(to: database) && usable.load(ordering: .acquiring)
    }

    /// Whether it was started for `database`, serving still or stopped by a failed statement.
    func belongs(to database: PostgresDatabase) -> Bool { self.database == ObjectIdentifier(database) }

    /// Stops the current snapshot of `database`, if any: something committed meanwhile that the rest of the query
    /// must see (a book opened for the first time, whose rows it wrote after the snapshot began).
    static func leave(_ database: PostgresDatabase) {
        if let current, current.belongs(to: database) { current.stop() }
    }

    /// Stops serving reads: it ended, or a statement failed in it.
    func stop() { usable.store(false, ordering: .releasing) }
}

extension PostgresDatabase {
    /// Runs `body` in one `REPEATABLE READ, READ ONLY` transaction: the current snapshot's, else one of its own.
    package func readInOneState<T>(_ body: (PostgresConnection) async throws -> sending T) async throws -> sending T {
        if let snapshot = PostgresSnapshot.current, snapshot.serves(self) { return try await read(body) }
        return try await write { connection in
            try await connection.rows("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
            return try await body(connection)
        }
    }

    /// Runs `body` with this database's reads in one snapshot; as it is when the snapshot cannot start.
    package func withSnapshot<T>(_ body: () async throws -> T) async throws -> T {
        // Nested (a query reading a second book of the instance): the outer snapshot serves it. One that stopped
        // is not replaced: a second snapshot connection held by one query could wait on another query's.
        if PostgresSnapshot.current?.belongs(to: self) ?? false { return try await body() }
        try checkOpen()
        var outcome: Result<T, any Error>?
        do {
            try await PoolLease.with(snapshots, within: location.connectTimeout) { connection in
                try await connection.rows(
                    "START TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
                let snapshot = PostgresSnapshot(connection, of: self)
                do {
                    outcome = .success(try await PostgresSnapshot.$current.withValue(snapshot) { try await body() })
                } catch {
                    outcome = .failure(error)
                }
                snapshot.stop()
                do { try await connection.rows("COMMIT", logger: logger) } catch {
                    // It may still be in its transaction, which the next query leasing it would read in: close it.
                    try? await connection.close()
                    throw error
                }
            }
        } catch  where outcome != nil {
            // The reads are done; a read-only transaction that fails to commit loses nothing.
        } catch {
            return try await body()
        }
        // Set whenever the transaction started (else the body ran above, as without a snapshot).
        guard let outcome else { return try await body() }
        return try outcome.get()
    }
}
