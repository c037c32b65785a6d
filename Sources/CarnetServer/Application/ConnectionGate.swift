import Synchronization

/// Counts the listener's open connections and refuses one past the limit, so that clients cannot take every file
/// descriptor the process has (when they ran out, the process trapped). Shared by all connections.
final class ConnectionGate: Sendable {
    let limit: Int
    private let open = Atomic<Int>(0)

    init(limit: Int) { self.limit = max(1, limit) }

    /// Takes a place for a new connection: `false` (nothing taken) when all are in use.
    func admit() -> Bool {
        if open.wrappingAdd(1, ordering: .relaxed).newValue <= limit { return true }
        open.wrappingSubtract(1, ordering: .relaxed)
        return false
    }

    /// Gives back the place of a connection that closed.
    func release() { open.wrappingSubtract(1, ordering: .relaxed) }

    var count: Int { open.load(ordering: .relaxed) }
}
