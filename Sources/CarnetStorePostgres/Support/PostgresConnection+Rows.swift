import CarnetStore
import Logging
import PostgresNIO

extension PostgresConnection {
    /// The rows of a query. One name for the asynchronous query, so chaining `.decode` after it does not pick
    /// postgres-nio's older future-returning overload.
    ///
    /// Never waits past the connection's close (``ConnectionWatch``).
    @discardableResult
    func rows(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        guard !isClosed else { throw ConnectionWatch.lost }
        return try await ConnectionWatch.query(self, query, logger: logger)
    }

    /// A prepared statement's rows, decoded; never waits past the connection's close (``ConnectionWatch``).
    func executeRows<Statement: PostgresPreparedStatement>(_ statement: Statement, logger: Logger) async throws
        -> [Statement.Row] where Statement.Row: Sendable
    {
        guard !isClosed else { throw ConnectionWatch.lost }
        return try await ConnectionWatch.execute(self, statement, logger: logger)
    }

    /// Runs `body` in a transaction: BEGIN, then COMMIT, or ROLLBACK when `body` throws, unless the connection is
    /// gone (its server ended the transaction). postgres-nio's own `withTransaction` rolls back on a closed
    /// connection too, and waits for ever (``rows(_:logger:)``).
    ///
    /// - Parameter unanswered: told the transaction's id when the COMMIT was sent and the connection lost before its
    ///   answer, for the caller to look up once it has let the connection go (``CommitOutcome``); by default the
    ///   transaction fails as one that may have been written.
    func inTransaction<T>(
        logger: Logger, isolation: isolated (any Actor)? = #isolation,
        unanswered: (Int64) throws -> Void = { _ in throw CommitOutcome.unknown },
        _ body: (PostgresConnection) async throws -> sending T
    ) async throws -> sending T {
        try await rows("BEGIN", logger: logger)
        let value: T
        let xid: Int64?
        do {
            value = try await body(self)
            // Named before the commit, so that a commit whose answer is lost can be looked up; none when the
            // transaction wrote nothing (and asking for one would make it take one).
            xid =
                try await rows("SELECT txid_current_if_assigned()", logger: logger).decode(Int64?.self).array()
                .first ?? nil
        } catch {
            if !isClosed { _ = try? await rows("ROLLBACK", logger: logger) }
            throw error
        }
        do {
            switch CommitOutcome.fault {
            case nil:
                try await rows("COMMIT", logger: logger)
            case .answerLostAfterCommit?:
                try await rows("COMMIT", logger: logger)
                throw ConnectionWatch.lost
            case .serverEndedAfterCommit?:
                try await rows("COMMIT", logger: logger)
                try await rows("SELECT pg_terminate_backend(pg_backend_pid())", logger: logger)
            case .answerLostAfterRollback?:
                try await rows("ROLLBACK", logger: logger)
                throw ConnectionWatch.lost
            }
        } catch {
            // Sent, maybe made: the connection went before the answer, or the server ended it (FATAL, as a server
            // shut down at once does) after the commit record may have reached its disk. Only an ERROR answer says
            // the transaction rolled back. Without a write, there was nothing to make. A lost answer was once taken
            // for an unreachable database, "nothing was written", although the save was stored (an outside
            // tester's find, PostgreSQL restarted at once under writers).
            guard let xid, Self.mayHaveCommitted(error) else { throw error }
            try unanswered(xid)
        }
        return value
    }

    /// Whether a COMMIT that failed with `error` may have been made: anything but the server's ERROR answer.
    static func mayHaveCommitted(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, error.code == .server else { return true }
        return error.serverInfo?[.severity] != "ERROR"
    }
}

extension AsyncSequence {
    /// Every element, in order: for decoded rows, which postgres-nio's `collect()` (rows only) does not take.
    func array() async throws -> [Element] {
        var elements: [Element] = []
        for try await element in self { elements.append(element) }
        return elements
    }
}
