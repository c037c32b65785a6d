import Synchronization

/// Deadlines for all in-flight requests, checked by one timer for the whole server: a timer (or a task group
/// racing a sleep) per request costs more than reading a typical small body does.
final class Deadlines: Sendable {
    private struct State {
        var next = 0
        var entries: [Int: (deadline: ContinuousClock.Instant, action: @Sendable () -> Void)] = [:]
    }

    private let state = Mutex(State())
    /// How often deadlines are checked, so an action runs at most this late.
    let resolution: Duration

    init(resolution: Duration = .milliseconds(100)) {
        self.resolution = resolution
        Task.detached { [weak self] in
            while let interval = self?.resolution {
                try? await Task.sleep(for: interval)
                self?.fireExpired()
            }
        }
    }

    /// Runs `action` once `deadline` passes, unless removed first. - Returns: the id to remove it with.
    func add(_ deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state in
            state.next += 1
            state.entries[state.next] = (deadline, action)
            return state.next
        }
    }

    func remove(_ id: Int) {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }

    private func fireExpired() {
        let now = ContinuousClock.now
        let due = state.withLock { state -> [@Sendable () -> Void] in
            let expired = state.entries.filter { $0.value.deadline <= now }
            for id in expired.keys { state.entries[id] = nil }
            return expired.values.map(\.action)
        }
        for action in due { action() }
    }
}
