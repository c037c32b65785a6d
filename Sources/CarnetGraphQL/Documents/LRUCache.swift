import Synchronization

/// A bounded map that forgets the least recently used entry when full. Thread-safe.
final class LRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct State {
        var entries: [Key: (value: Value, tick: UInt64)] = [:]
        var tick: UInt64 = 0
    }

    private let state = Mutex(State())
    let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

    subscript(key: Key) -> Value? {
        state.withLock { state in
            // One lookup, not a read and a write: the key is hashed once.
            guard let index = state.entries.index(forKey: key) else { return nil }
            state.tick += 1
            state.entries.values[index].tick = state.tick
            return state.entries.values[index].value
        }
    }

    func insert(_ value: Value, for key: Key) {
        state.withLock { state in
            state.tick += 1
            if state.entries[key] == nil, state.entries.count >= capacity,
                let oldest = state.entries.min(by: { $0.value.tick < $1.value.tick })?.key
            {
                state.entries[oldest] = nil
            }
            state.entries[key] = (value, state.tick)
        }
    }

    var count: Int { state.withLock { $0.entries.count } }
}
