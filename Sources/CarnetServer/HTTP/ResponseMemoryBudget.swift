import Synchronization

/// The bytes of built GraphQL responses that their clients have not taken yet, across every connection.
///
/// A response is built whole, then held until the client's socket (or its HTTP/2 stream's window) takes it: a client
/// that asks and never reads held each answer, up to ``GraphQLLimits/maxResponseBytes`` apiece, for as long as its
/// connection lived (an outside tester's 3 connections of 8 unread streams grew the server by 835 MB). Past the budget
/// an answer is dropped as soon as it is built and its request gets 503 with `SERVER_BUSY`: what clients can hold is
/// the budget, however many connections they open. One response alone always passes, whatever its size.
final class ResponseMemoryBudget: Sendable {
    let limit: Int
    private let held = Mutex(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Holds `bytes` until the reservation is gone (its last reference dropped, written or not); `nil` past the
    /// budget.
    func reserve(_ bytes: Int) -> Reservation? {
        let granted = held.withLock { held in
            guard held == 0 || held + bytes <= limit else { return false }
            held += bytes
            return true
        }
        return granted ? Reservation(budget: self, bytes: bytes) : nil
    }

    fileprivate func release(_ bytes: Int) {
        held.withLock { $0 -= bytes }
    }

    /// Bytes of one response, given back when the response body that holds it goes.
    final class Reservation: Sendable {
        private let budget: ResponseMemoryBudget
        let bytes: Int

        fileprivate init(budget: ResponseMemoryBudget, bytes: Int) {
            self.budget = budget
            self.bytes = bytes
        }

        deinit { budget.release(bytes) }
    }
}
