import CarnetStore
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// One instance's connection pool to the database, with its failures as store errors.
///
/// postgres-nio's `PostgresClient` serves queries only while its `run()` is running: the database runs it in a task
/// of its own from ``connect(_:logger:)`` until ``close()``, so the CLI, tools and tests need no service group.
package final class PostgresDatabase: Sendable {
    package let client: PostgresClient
    /// The connections that hold a query's snapshot (``withSnapshot(_:)``), a pool apart: a query holding one may
    /// wait for one of ``client``'s (a book opened for the first time writes its row), and no holder of those ever
    /// waits for a snapshot, so neither pool can run dry waiting on itself.
    let snapshots: PostgresClient
    package let location: PostgresLocation
    let logger: Logger
    private let running: [Task<Void, Never>]
    /// Set by ``close()``: postgres-nio queues a lease on a pool whose `run()` ended instead of failing it, so a
    /// read or write after the close would wait for ever.
    private let closed = Atomic<Bool>(false)

    private init(client: PostgresClient, snapshots: PostgresClient, location: PostgresLocation, logger: Logger) {
        self.client = client
        self.snapshots = snapshots
        self.location = location
        self.logger = logger
        self.running = [Task { await client.run() }, Task { await snapshots.run() }]
    }

    /// Starts the pool and checks that the database answers.
    /// - Throws: ``StoreError`` `unavailable` when it does not.
    /// - Parameter lockTimeout: how long a statement waits for a lock (``StoreConfiguration/busyTimeout``).
    package static func connect(_ location: PostgresLocation, lockTimeout: TimeInterval = 5, logger: Logger)
        async throws -> PostgresDatabase
    {
        // One deadline for the probe and the pool's first connection: a database that does not answer holds up the
        // start for the connect timeout, not twice that.
        let deadline = ContinuousClock.now + location.connectTimeout
        try await PostgresLoginProbe.check(location, logger: logger)
        let configuration = try location.clientConfiguration(lockTimeout: lockTimeout)
        var snapshotConfiguration = configuration
        snapshotConfiguration.options.maximumConnections = location.snapshotPoolSize
        let database = PostgresDatabase(
            client: PostgresClient(configuration: configuration, backgroundLogger: logger),
            snapshots: PostgresClient(configuration: snapshotConfiguration, backgroundLogger: logger),
            location: location, logger: logger)
        do {
            // The pool retries a failing connection for about a minute; a server that is down must not hold up a
            // start that long.
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    _ = try await database.read { connection in try await connection.rows("SELECT 1", logger: logger) }
                }
                group.addTask {
                    try await Task.sleep(until: deadline)
                    var error = StoreError(.unavailable, "The database did not answer within the connect timeout.")
                    error.retryAfter = .seconds(1)
                    throw error
                }
                defer { group.cancelAll() }
                try await group.next()
            }
        } catch {
            await database.close()
            throw error
        }
        return database
    }

    /// Stops the pool: connections close once their queries finish.
    package func close() async {
        closed.store(true, ordering: .releasing)
        for task in running { task.cancel() }
        for task in running { await task.value }
    }

    /// Runs `body` on a pooled connection, outside a transaction.
    package func read<T>(_ body: (PostgresConnection) async throws -> sending T) async throws -> sending T {
        try checkOpen()
        do {
            if let snapshot = PostgresSnapshot.current, snapshot.serves(self) {
                do { return try await body(snapshot.connection) } catch let error as PSQLError {
                    // The transaction is aborted: the reads after this one run outside it.
                    snapshot.stop()
                    throw error
                }
            }
            do {
                return try await PoolLease.with(client, within: location.connectTimeout, body)
            } catch let error where Self.connectionEnded(error) {
                // A connection its server ended (a restart, a terminated backend) can be lent once more before the
                // pool has seen it close: a read, which changes nothing, runs again on another.
                return try await PoolLease.with(client, within: location.connectTimeout, body)
            }
        } catch {
            throw StoreError.mapped(error)
        }
    }

    /// Whether `error` says the connection itself ended, rather than the statement failing on it.
    static func connectionEnded(_ error: any Error) -> Bool {
        if let error = error as? StoreError { return error.cause == ConnectionWatch.lost.cause }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .serverClosedConnection, .connectionError, .uncleanShutdown: return true
        case .server: return error.serverInfo?[.severity] == "FATAL"
        default: return false
        }
    }

    /// Runs `body` in a transaction: all of it commits, or none of it and the error.
    package func write<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: (PostgresConnection) async throws -> sending T
    ) async throws -> sending T {
        try checkOpen()
        do {
            // Looked up once the lost connection's lease is back: a pool whose every connection lost its COMMIT's
            // answer at once (a failover) has none to lend otherwise.
            let unanswered = Mutex<Int64?>(nil)
            func attempt(_ isolation: isolated (any Actor)?) async throws -> sending T {
                try await PoolLease.with(client, within: location.connectTimeout, isolation: isolation) { connection in
                    try await connection.inTransaction(
                        logger: logger, isolation: isolation, unanswered: { xid in unanswered.withLock { $0 = xid } },
                        body)
                }
            }
            let value: T
            do {
                value = try await attempt(isolation)
            } catch let error where Self.connectionEnded(error) {
                // Ended before its COMMIT was sent (a lost COMMIT's answer is looked up below, never thrown here):
                // nothing was written, and the transaction runs again on another connection, as a read does.
                value = try await attempt(isolation)
            }
            if let xid = unanswered.withLock({ $0 }) {
                try await CommitOutcome.resolve(xid, on: client, logger: logger)
            }
            return value
        } catch {
            throw StoreError.mapped(error)
        }
    }

    func checkOpen() throws {
        guard !closed.load(ordering: .acquiring) else {
            throw StoreError.storeClosed
        }
    }
}
