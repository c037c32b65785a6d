import CarnetStore
import Synchronization

/// Where a store ran its writes: for each executed statement that starts with a prefix, whether it ran on a
/// ``BackgroundExecutor``'s thread. Install ``trace(_:)`` as the store's `statementTrace`.
package final class PlacementLog: Sendable {
    private let prefix: String
    private let placements = Mutex<[Bool]>([])

    /// - Parameter prefix: the statements to record, e.g. `INSERT INTO`.
    package init(prefix: String) { self.prefix = prefix }

    package func trace(_ sql: String) {
        guard sql.hasPrefix(prefix) else { return }
        let onBackground = BackgroundExecutor.runsOnCurrentThread
        placements.withLock { $0.append(onBackground) }
    }

    /// Forgets what was recorded, e.g. the schema's own rows, written as a store's file was created.
    package func reset() { placements.withLock { $0.removeAll() } }

    /// Each recorded statement's placement, `true` on a background thread, in the order they ran.
    package var all: [Bool] { placements.withLock { $0 } }
}
