import CarnetStore
import Logging
import PostgresNIO
import Synchronization

/// Runs postgres-nio queries so that a connection's close always ends them.
///
/// postgres-nio writes a query to its channel without a promise: a query written just as the server closes the
/// connection (a failover, `pg_terminate_backend`), after NIO has taken the handlers out of the closed channel, is
/// lost with its promise, and its caller waits for ever. A save holding its pool lease hung so, until every request
/// waited for the pool, and a subscription's notifier so, silently (an outside tester's finds). The query runs in a
/// task of its own; the caller waits for whichever comes first, the query's answer or the connection's close (plus
/// ``closeGrace``, so that an answer that came with the close, a COMMIT's, still wins). Its rows are then read as
/// they come: a row stream open when its connection closes ends with the error. A query lost so leaves its task
/// suspended, holding the closed connection: once per lost connection at most.
enum ConnectionWatch {
    /// How each waiting caller is told that its connection closed.
    private typealias Failure = @Sendable (any Error) -> Void

    /// The callers waiting on a connection's work, by call. The entry holds its connection until the close has been
    /// told (``closeGrace`` after it), so no other connection takes its address, and its key, meanwhile: keyed by
    /// an address alone, a connection made within the grace joined the closed one's entry and its callers were told
    /// of a close that was not theirs.
    private struct Entry {
        let connection: PostgresConnection
        var waiters: [Int: Failure] = [:]
    }

    /// The entries of the connections with work, by connection.
    private static let waiting = Mutex<[ObjectIdentifier: Entry]>([:])
    private static let nextCall = Atomic<Int>(0)

    /// How long after a connection's close its waiting callers are told: an answer that arrived with the close is
    /// handed over first.
    static let closeGrace = TimeAmount.seconds(1)

    /// A query's rows, as they come.
    static func query(_ connection: PostgresConnection, _ query: PostgresQuery, logger: Logger) async throws
        -> PostgresRowSequence
    {
        try await watch(connection) { try await $0.query(query, logger: logger) }
    }

    /// A prepared statement's rows, decoded (read whole: postgres-nio's decoded sequence is not sendable).
    static func execute<Statement: PostgresPreparedStatement>(
        _ connection: PostgresConnection, _ statement: Statement, logger: Logger
    ) async throws -> [Statement.Row] where Statement.Row: Sendable {
        try await watch(connection) { try await $0.execute(statement, logger: logger).array() }
    }

    /// `work`'s result, or the error of a lost connection when `connection` closes first.
    private static func watch<T: Sendable>(
        _ connection: PostgresConnection, _ work: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let key = ObjectIdentifier(connection)
        let id = nextCall.add(1, ordering: .relaxed).newValue
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let watched = waiting.withLock { table -> Bool in
                let watched = table[key] != nil
                table[key, default: Entry(connection: connection)].waiters[id] = { continuation.resume(throwing: $0) }
                return watched
            }
            if !watched {
                // Once per connection: at its close (at once if it is closed), every caller still waiting is told.
                connection.closeFuture.whenComplete { _ in
                    connection.eventLoop.scheduleTask(in: closeGrace) {
                        let orphans = waiting.withLock { $0.removeValue(forKey: key) }?.waiters ?? [:]
                        for fail in orphans.values { fail(lost) }
                    }
                }
            }
            Task {
                let result: Result<T, any Error>
                do {
                    result = .success(try await work(connection))
                } catch {
                    result = .failure(error)
                }
                // Whoever takes the caller out of the table answers it, once.
                if waiting.withLock({ $0[key]?.waiters.removeValue(forKey: id) }) != nil {
                    continuation.resume(with: result)
                }
            }
        }
    }

    /// The error of work whose connection closed before it ended.
    static var lost: StoreError { .unavailable("The database connection was lost") }
}
