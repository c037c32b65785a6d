import DequeModule
import Synchronization

/// Lets a fixed number of holders in at once; the others wait in arrival order.
///
/// A WebSocket's queries and mutations pass one: a client that sends 100 of them and reads none of the answers
/// would otherwise have the server build and hold all 100 answers at once (an outside client held 1 GB this way
/// with 4 MB answers). Large answers pass one across the process (``AnswerWeight/turns``). Waiting here, an
/// operation has not run yet, so it holds nothing.
public final class OperationGate: AnswerGate {
    /// The waiters by id, and their ids in arrival order: a waiter that gave up leaves its id behind, skipped when
    /// reached. Letting the next one in and giving up are then O(1): one gate serves the whole process's large
    /// answers (``AnswerWeight/turns``), and an array's `removeFirst` made thousands of waiters quadratic.
    private struct State {
        var free: Int
        var waiting: [Int: CheckedContinuation<Bool, Never>] = [:]
        var order: Deque<Int> = []
        var nextID = 0

        /// The longest waiting holder, taken off the list.
        mutating func takeFirst() -> CheckedContinuation<Bool, Never>? {
            while let id = order.popFirst() {
                if let continuation = waiting.removeValue(forKey: id) { return continuation }
            }
            return nil
        }

        /// A waiter that gave up, taken off the list; its id stays in `order` until reached, or until the ids
        /// left behind are most of it (amortised over the waiters that left them).
        mutating func remove(_ id: Int) -> CheckedContinuation<Bool, Never>? {
            let continuation = waiting.removeValue(forKey: id)
            if order.count > 2 * waiting.count + 64 { order = Deque(order.filter { waiting[$0] != nil }) }
            return continuation
        }
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
                        state.waiting[id] = continuation
                        state.order.append(id)
                        return nil
                    }
                    state.free -= 1
                    return true
                }
                if let admitted { continuation.resume(returning: admitted) }
            }
        } onCancel: {
            let waiting = state.withLock { $0.remove(id) }
            waiting?.resume(returning: false)
        }
    }

    /// How many holders wait now.
    public var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Gives the place to the longest waiting holder, or back.
    public func leave() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let next = state.takeFirst() else {
                state.free += 1
                return nil
            }
            return next
        }
        next?.resume(returning: true)
    }
}
