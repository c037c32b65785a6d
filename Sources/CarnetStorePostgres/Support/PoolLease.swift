import CarnetStore
import NIOCore
import PostgresNIO
import Synchronization

/// A pooled connection within a deadline.
///
/// postgres-nio queues a lease until a connection comes free or is made, without a bound. With the database down,
/// the pool retries its connections with a backoff that grows to a minute, and every request waited that long
/// before any answer (68 s with `connect_timeout=2`, an outside tester's find): the HTTP clients and proxies in
/// front had given up long before, and requests piled up. A lease not granted within the deadline is withdrawn and
/// the caller gets UNAVAILABLE, to retry. The wait is the only part bounded: `body` runs as long as it runs.
///
/// The lease is taken in a task of its own, which lends the connection to the caller and holds the lease until the
/// caller is done with it: postgres-nio's lease is a closure, whose wait cannot be abandoned but by cancelling
/// its task.
enum PoolLease {
    /// `body`'s result on a connection of `client`'s, leased within `timeout`.
    /// - Throws: ``StoreError`` `unavailable` when no connection was leased in time; `CancellationError` when the
    ///   task was cancelled meanwhile; the pool's error; `body`'s.
    static func with<T>(
        _ client: PostgresClient, within timeout: Duration, isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> sending T
    ) async throws -> sending T {
        let handoff = Handoff()
        let holder = Task {
            do {
                try await client.withConnection { connection in await handoff.lend(connection) }
            } catch {
                handoff.withdraw(error)
            }
        }
        let timer = PostgresConnection.defaultEventLoopGroup.any().scheduleTask(in: TimeAmount(timeout)) {
            handoff.withdraw(
                StoreError.unavailable("The database gave no connection within \(timeout.components.seconds) s"))
            holder.cancel()
        }
        let connection: PostgresConnection
        do {
            connection = try await withTaskCancellationHandler {
                try await handoff.connection()
            } onCancel: {
                handoff.withdraw(CancellationError())
                holder.cancel()
            }
        } catch {
            timer.cancel()
            throw error
        }
        timer.cancel()
        defer { handoff.release() }
        return try await body(connection)
    }

    /// Between the task that holds the lease and the caller that uses its connection.
    private final class Handoff: Sendable {
        private struct State {
            /// The caller, waiting for the connection.
            var caller: CheckedContinuation<PostgresConnection, any Error>?
            /// What the caller gets when it asks: the connection lent before it asked, or why there is none.
            var outcome: Result<PostgresConnection, any Error>?
            /// The connection went to the caller: nothing withdraws it any more.
            var lent = false
            /// Withdrawn (the deadline, a cancellation or the pool's error): a connection lent after is given back.
            var withdrawn = false
            /// The holder, waiting for the caller to be done.
            var holder: CheckedContinuation<Void, Never>?
            var released = false
        }

        private let state = Mutex(State())

        /// Called by the holder with its leased connection; returns once the caller is done with it (at once when
        /// the lease was withdrawn meanwhile), which gives the lease back.
        func lend(_ connection: PostgresConnection) async {
            enum Lending {
                case withdrawn
                case kept
                case handed(CheckedContinuation<PostgresConnection, any Error>)
            }
            let lending = state.withLock { state -> Lending in
                guard !state.withdrawn else { return .withdrawn }
                state.lent = true
                guard let caller = state.caller else {
                    state.outcome = .success(connection)
                    return .kept
                }
                state.caller = nil
                return .handed(caller)
            }
            switch lending {
            case .withdrawn: return
            case .kept: break
            case .handed(let caller): caller.resume(returning: connection)
            }
            await withCheckedContinuation { (holder: CheckedContinuation<Void, Never>) in
                let done = state.withLock { state in
                    if !state.released { state.holder = holder }
                    return state.released
                }
                if done { holder.resume() }
            }
        }

        /// The connection, once lent.
        func connection() async throws -> PostgresConnection {
            try await withCheckedThrowingContinuation { (caller: CheckedContinuation<PostgresConnection, any Error>) in
                let outcome = state.withLock { state in
                    if state.outcome == nil { state.caller = caller }
                    return state.outcome
                }
                if let outcome { caller.resume(with: outcome) }
            }
        }

        /// Ends the wait with `error`, unless the connection was lent already.
        func withdraw(_ error: any Error) {
            let caller = state.withLock { state -> CheckedContinuation<PostgresConnection, any Error>? in
                guard !state.lent, !state.withdrawn else { return nil }
                state.withdrawn = true
                guard let caller = state.caller else {
                    state.outcome = .failure(error)
                    return nil
                }
                state.caller = nil
                return caller
            }
            caller?.resume(throwing: error)
        }

        /// The caller is done: the holder gives the lease back.
        func release() {
            let holder = state.withLock { state in
                state.released = true
                defer { state.holder = nil }
                return state.holder
            }
            holder?.resume()
        }
    }
}
