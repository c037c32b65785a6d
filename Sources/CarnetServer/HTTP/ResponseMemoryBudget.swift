import Synchronization

/// The bytes of GraphQL responses being built, and built but not yet taken by their clients, across every
/// connection.
///
/// A response is built whole, then held until the client's socket (or its HTTP/2 stream's window) takes it: a client
/// that asks and never reads held each answer, up to ``GraphQLLimits/maxResponseBytes`` apiece, for as long as its
/// connection lived (an outside tester's 3 connections of 8 unread streams grew the server by 835 MB). And many large
/// queries at once each build theirs at the same time. A query's reservation grows with its response as it is
/// written (``GraphQLRequestContext/admitResponseBytes``) and becomes the held answer's; past the budget a query is
/// cut short with `SERVER_BUSY`, and an answer built without asking (a mutation's) gets 503 with `SERVER_BUSY`. What
/// clients can make the server hold is the budget, however many connections they open. One response alone always
/// passes, whatever its size.
final class ResponseMemoryBudget: Sendable {
    let limit: Int
    private let held = Mutex(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// A reservation of nothing yet, to grow with a response as it is built.
    func reservation() -> Reservation { Reservation(budget: self) }

    /// Moves one reservation from `old` bytes to `new`: a shrink always, a growth within the budget or when
    /// nothing else is held.
    fileprivate func move(from old: Int, to new: Int) -> Bool {
        held.withLock { held in
            let growth = new - old
            guard growth <= 0 || held == old || held + growth <= limit else { return false }
            held += growth
            return true
        }
    }

    /// Bytes of one response, given back when the last reference goes (the response body that holds it, written
    /// or not).
    final class Reservation: Sendable {
        private let budget: ResponseMemoryBudget
        private let held = Mutex(0)

        fileprivate init(budget: ResponseMemoryBudget) {
            self.budget = budget
        }

        /// Holds `bytes` instead of what it held: always when smaller, within the budget when larger.
        func resize(to bytes: Int) -> Bool {
            held.withLock { held in
                guard budget.move(from: held, to: bytes) else { return false }
                held = bytes
                return true
            }
        }

        deinit { _ = budget.move(from: held.withLock { $0 }, to: 0) }
    }
}
