import CarnetGraphQL
import Synchronization
import Testing

/// The gate a socket's queries and mutations pass: at most its limit inside at once, the others let in in the
/// order they came as places free up.
@Suite("A socket's turns for queries and mutations")
struct OperationGateTests {
    /// What the holders did, in order.
    final class Log: Sendable {
        let state = Mutex((inside: 0, most: 0, entered: [Int](), held: [Int: CheckedContinuation<Void, Never>]()))
    }

    @Test("At most the limit inside at once; waiting holders enter in arrival order", arguments: [1, 3])
    func limitAndOrder(limit: Int) async throws {
        let count = 10
        let gate = OperationGate(limit: limit)
        let log = Log()
        var holders: [Task<Void, Never>] = []
        for number in 0..<count {
            holders.append(
                Task {
                    guard await gate.enter() else {
                        Issue.record("holder \(number) was refused")
                        return
                    }
                    // Inside until the test lets this holder go.
                    await withCheckedContinuation { continuation in
                        log.state.withLock { state in
                            state.inside += 1
                            state.most = max(state.most, state.inside)
                            state.entered.append(number)
                            state.held[number] = continuation
                        }
                    }
                    log.state.withLock { $0.inside -= 1 }
                    gate.leave()
                })
            // Each holder is inside or queued before the next starts: arrival order is creation order.
            while log.state.withLock({ $0.entered.count }) + gate.waitingCount < number + 1 { await Task.yield() }
        }
        #expect(log.state.withLock { $0.entered } == Array(0..<limit))
        for number in 0..<count {
            var held: CheckedContinuation<Void, Never>?
            while held == nil {
                held = log.state.withLock { $0.held.removeValue(forKey: number) }
                if held == nil { await Task.yield() }
            }
            held?.resume()
        }
        for holder in holders { await holder.value }
        let state = log.state.withLock { ($0.most, $0.entered, $0.inside) }
        #expect(state.0 == limit)
        #expect(state.1 == Array(0..<count))
        #expect(state.2 == 0)
        #expect(gate.waitingCount == 0)
    }

    @Test("A holder cancelled while it waits leaves the queue at once, takes no place, and the next one gets it")
    func cancelledWhileWaiting() async throws {
        let gate = OperationGate(limit: 1)
        #expect(await gate.enter())
        let cancelled = Task { await gate.enter() }
        while gate.waitingCount < 1 { await Task.yield() }
        let next = Task { await gate.enter() }
        while gate.waitingCount < 2 { await Task.yield() }
        cancelled.cancel()
        #expect(await cancelled.value == false)
        #expect(gate.waitingCount == 1)
        gate.leave()
        #expect(await next.value == true)
        // The place went to `next`; a cancelled task that arrives later is refused without waiting.
        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await gate.enter()
        }
        #expect(await late.value == false)
        gate.leave()
        #expect(await gate.enter())
    }

    /// Waiters that give up leave their ids behind in the arrival order, dropped once they are most of it: the
    /// ones still waiting keep their order through that.
    @Test("Many waiters giving up: the rest still enter in arrival order")
    func manyCancelled() async throws {
        let gate = OperationGate(limit: 1)
        #expect(await gate.enter())
        final class Entered: Sendable { let order = Mutex<[Int]>([]) }
        let entered = Entered()
        var waiters: [Task<Void, Never>] = []
        for index in 0..<200 {
            waiters.append(
                Task {
                    guard await gate.enter() else { return }
                    entered.order.withLock { $0.append(index) }
                    gate.leave()
                })
            while gate.waitingCount < index + 1 { await Task.yield() }
        }
        // Three in four give up: enough that their ids left behind are dropped while the others wait.
        for index in 0..<200 where index % 4 != 0 { waiters[index].cancel() }
        while gate.waitingCount > 50 { await Task.yield() }
        gate.leave()
        for waiter in waiters { await waiter.value }
        #expect(entered.order.withLock { $0 } == Array(stride(from: 0, to: 200, by: 4)))
        #expect(gate.waitingCount == 0)
    }
}
