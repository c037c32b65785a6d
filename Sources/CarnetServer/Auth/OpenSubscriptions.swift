import CarnetGraphQL
import Synchronization

/// This process's open subscriptions with whom they serve, so that access a management mutation takes away ends
/// them at once (``AccessNarrowing``) instead of at their next check of the catalog.
final class OpenSubscriptions: Sendable {
    struct Entry: Sendable {
        let tokenID: String
        let principalID: String
        let bookID: String
        /// Ends the subscription with the access-ended error.
        let end: @Sendable () -> Void
    }

    private let entries = Mutex<(next: Int, open: [Int: Entry])>((0, [:]))

    /// Registers a subscription; pass the key to ``remove(_:)`` when it ends.
    func add(_ entry: Entry) -> Int {
        entries.withLock { state in
            state.next += 1
            state.open[state.next] = entry
            return state.next
        }
    }

    func remove(_ key: Int) {
        _ = entries.withLock { $0.open.removeValue(forKey: key) }
    }

    /// Ends the subscriptions that `narrowing` takes access from (outside the lock: ending one sends a message).
    func narrowed(_ narrowing: AccessNarrowing) {
        let ending = entries.withLock { state in
            state.open.values.filter {
                narrowing.ends(tokenID: $0.tokenID, principalID: $0.principalID, bookID: $0.bookID)
            }.map(\.end)
        }
        for end in ending { end() }
    }
}
