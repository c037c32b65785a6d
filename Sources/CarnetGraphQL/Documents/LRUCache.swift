import Synchronization

/// A bounded map that forgets the least recently used entries when full: past `capacity` entries, or past
/// `maxCost` in all (each entry's cost given with it: its text's bytes, so that a count of long documents cannot
/// hold gigabytes). An entry costing more than `maxCost` alone is not kept. Thread-safe.
final class LRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct State {
        var entries: [Key: (value: Value, tick: UInt64, cost: Int)] = [:]
        var tick: UInt64 = 0
        var cost = 0
    }

    private let state = Mutex(State())
    let capacity: Int
    let maxCost: Int

    init(capacity: Int, maxCost: Int = .max) {
        self.capacity = max(1, capacity)
        self.maxCost = max(0, maxCost)
    }

    subscript(key: Key) -> Value? {
        state.withLock { state in
            // One lookup, not a read and a write: the key is hashed once.
            guard let index = state.entries.index(forKey: key) else { return nil }
            state.tick += 1
            state.entries.values[index].tick = state.tick
            return state.entries.values[index].value
        }
    }

    func insert(_ value: Value, for key: Key, cost: Int = 0) {
        let cost = max(0, cost)
        guard cost <= maxCost else { return }
        state.withLock { state in
            state.tick += 1
            if let old = state.entries.removeValue(forKey: key) { state.cost -= old.cost }
            while !state.entries.isEmpty, state.entries.count >= capacity || state.cost > maxCost - cost,
                let oldest = state.entries.min(by: { $0.value.tick < $1.value.tick })?.key
            {
                state.cost -= state.entries.removeValue(forKey: oldest)?.cost ?? 0
            }
            state.entries[key] = (value, state.tick, cost)
            state.cost += cost
        }
    }

    var count: Int { state.withLock { $0.entries.count } }
    /// The cost of the entries kept.
    var cost: Int { state.withLock { $0.cost } }
}
