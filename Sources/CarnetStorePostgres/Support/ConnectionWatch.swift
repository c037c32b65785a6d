import CarnetStore
import Logging
import PostgresNIO
import Synchronization

/// Runs postgres-nio queries so that a connection's close always ends them.
///
/// postgres-nio writes a query to its channel without a promise: a query written just as the server closes the
/// connection (a failover, `pg_terminate_backend`), after NIO has taken the handlers out of the closed channel, is
/// lost with its promise, and its caller waits for ever; so does one reading a query's rows as the connection
/// closes. A save holding its pool lease hung so, until every request waited for the pool, and a subscription's
/// notifier so, silently (an outside tester's finds). The query and the reading of its rows run in a task of their
/// own; the caller waits for whichever comes first, the rows or the connection's close. A query lost so leaves its
/// task suspended: a few hundred bytes, once per lost connection at most.
enum ConnectionWatch {
    /// How each waiting caller is told that its connection closed.
    private typealias Failure = @Sendable (any Error) -> Void

    /// The callers waiting on each open connection's work, by connection and call.
    private static let waiting = Mutex<[ObjectIdentifier: [Int: Failure]]>([:])
    private static let nextCall = Atomic<Int>(0)

    /// A query's rows.
    static func query(_ connection: PostgresConnection, _ query: PostgresQuery, logger: Logger) async throws
        -> CollectedRows
    {
        try await watch(connection) { CollectedRows(try await $0.query(query, logger: logger).collect()) }
    }

    /// A prepared statement's rows, decoded.
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
                table[key, default: [:]][id] = { continuation.resume(throwing: $0) }
                return watched
            }
            if !watched {
                // Once per connection: at its close (at once if it is closed), every caller still waiting is told.
                connection.closeFuture.whenComplete { _ in
                    let orphans = waiting.withLock { $0.removeValue(forKey: key) } ?? [:]
                    for fail in orphans.values { fail(lost) }
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
                if waiting.withLock({ $0[key]?.removeValue(forKey: id) }) != nil { continuation.resume(with: result) }
            }
        }
    }

    /// The error of work whose connection closed before it ended.
    static var lost: StoreError {
        var error = StoreError(.unavailable, "The database connection was lost; nothing was written. Retry shortly.")
        error.retryAfter = .seconds(1)
        return error
    }
}

/// A query's rows, read whole (``ConnectionWatch``): postgres-nio's `decode` and a `for try await` take them as
/// they take its row sequence.
struct CollectedRows: AsyncSequence, Sendable {
    typealias Element = PostgresRow

    let rows: [PostgresRow]

    init(_ rows: [PostgresRow]) { self.rows = rows }

    /// Every row.
    func collect() -> [PostgresRow] { rows }

    func makeAsyncIterator() -> Iterator { Iterator(rows: rows.makeIterator()) }

    struct Iterator: AsyncIteratorProtocol {
        var rows: IndexingIterator<[PostgresRow]>

        mutating func next() async throws -> PostgresRow? { rows.next() }
    }
}
