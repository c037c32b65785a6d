import Synchronization

/// Lets a fixed number of holders in at once; the others wait in arrival order.
///
/// A WebSocket's queries and mutations pass one: a client that sends 100 of them and reads none of the answers
/// would otherwise have the server build and hold all 100 answers at once (an outside client held 1 GB this way
/// with 4 MB answers). Large answers pass one across the process (``AnswerWeight/turns``). Waiting here, an
/// operation has not run yet, so it holds nothing.
public final class OperationGate: AnswerGate {
    private struct State {
        var free: Int
        var waiting: [(id: Int, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextID = 0
    }

    private let state: Mutex<State>

    public init(limit: Int) { state = Mutex(State(free: max(1, limit))) }

    /// Waits for a place. - Returns: `true` once in (pair it with ``leave()``); `false` when the task was
    /// cancelled first (the client completed the operation, the socket closed or the server is stopping), which
    /// takes no place.
    public func enter() async -> Bool {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let admitted: Bool? = state.withLock { state in
                    if Task.isCancelled { return false }
                    guard state.free > 0 else {
                        state.waiting.append((id, continuation))
                        return nil
                    }
                    state.free -= 1
                    return true
                }
                if let admitted { continuation.resume(returning: admitted) }
            }
        } onCancel: {
            let waiting = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiting.remove(at: index).continuation
            }
            waiting?.resume(returning: false)
        }
    }

    /// How many holders wait now.
    public var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Gives the place to the longest waiting holder, or back.
    public func leave() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst().continuation
        }
        next?.resume(returning: true)
    }
}
