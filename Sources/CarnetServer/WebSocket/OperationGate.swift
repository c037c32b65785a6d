import Synchronization

/// Lets a fixed number of holders in at once; the others wait in arrival order.
///
/// A socket's queries and mutations pass it: a client that sends 100 of them and reads none of the answers would
/// otherwise have the server build and hold all 100 answers at once (an outside client held 1 GB this way with
/// 4 MB answers). Waiting here, an operation has not run yet, so it holds nothing.
final class OperationGate: Sendable {
    private let state: Mutex<(free: Int, waiting: [CheckedContinuation<Void, Never>])>

    init(limit: Int) { state = Mutex((max(1, limit), [])) }

    /// Waits for a place. Pair with ``leave()``, also when the holder was cancelled meanwhile.
    func enter() async {
        await withCheckedContinuation { continuation in
            let admitted = state.withLock { state in
                guard state.free > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if admitted { continuation.resume() }
        }
    }

    /// How many holders wait now.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Gives the place to the longest waiting holder, or back.
    func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
