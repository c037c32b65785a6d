import Foundation
import Synchronization
import Testing

@testable import CarnetStore

#if canImport(Glibc)
    import Glibc
#endif

/// Bulk work (an import) runs on a thread of its own at a lower priority, across its awaits.
@Suite("Background executor")
struct BackgroundExecutorTests {
    @Test("Work runs on its own thread, at a lower priority, before and after its awaits")
    func ownThread() async throws {
        #expect(!BackgroundExecutor.runsOnCurrentThread)
        let outside = Self.niceValue()
        let counter = Counter()
        let seen = try await BackgroundExecutor.$ignoresThreadLimit.withValue(true) {
            try await BackgroundExecutor.run { () -> [Observation] in
                var seen = [Observation()]
                await counter.increment()  // an actor's executor, then back
                seen.append(Observation())
                await Task.yield()
                seen.append(Observation())
                return seen
            }
        }
        #expect(seen.allSatisfy { $0.onBackgroundThread })
        #expect(Set(seen.map(\.thread)).count == 1, "one thread for the whole operation")
        #if os(Linux)
            #expect(seen.allSatisfy { $0.name == "carnet.bg" }, "named, so profiles and top tell it apart")
        #endif
        #if os(Linux)
            #expect(seen.allSatisfy { $0.nice >= max(outside, BackgroundExecutor.niceness) })
        #endif
        #expect(!BackgroundExecutor.runsOnCurrentThread)
        #expect(Self.niceValue() == outside, "the caller's thread keeps its priority")
        #expect(await counter.value == 1)
    }

    @Test("Two runs at once each get a thread, and an error reaches the caller")
    func concurrentRunsAndErrors() async throws {
        async let first = BackgroundExecutor.run { Observation().thread }
        async let second = BackgroundExecutor.run { Observation().thread }
        let threads = try await [first, second]
        #expect(threads.count == 2)
        await #expect(throws: StoreError.self) {
            try await BackgroundExecutor.run { () -> Int in throw StoreError(.storageFailure, "refused") }
        }
    }

    @Test(
        "A task started by the operation that outlives it still runs, after the thread has ended",
        // A hang bound: a whole suite on a loaded machine once stalled this test's minute.
        .timeLimit(.minutes(10)))
    func taskOutlivingTheOperation() async throws {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let late = try await BackgroundExecutor.$ignoresThreadLimit.withValue(true) {
            try await BackgroundExecutor.run {
                // Its jobs come after the thread is gone: wherever they are enqueued, they must run.
                Task { () -> Int in
                    var total = 0
                    for await value in stream { total += value }
                    return total
                }
            }
        }
        continuation.yield(40)
        continuation.yield(2)
        continuation.finish()
        #expect(await late.value == 42)
    }

    @Test("Past the most threads at once, an operation runs where it was called")
    func boundedThreads() async throws {
        let count = BackgroundExecutor.maximumThreads + 2
        let barrier = Barrier(count)
        let placed = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<count {
                group.addTask {
                    try await BackgroundExecutor.run { () -> Bool in
                        let onThread = BackgroundExecutor.runsOnCurrentThread
                        await barrier.arrive()  // every operation alive at once
                        return onThread
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Other tests' imports may hold threads too: at most the limit here, and at least the two past it inline.
        #expect(placed.filter { $0 }.count <= BackgroundExecutor.maximumThreads)
        #expect(placed.filter { !$0 }.count >= 2)
    }

    actor Barrier {
        private let count: Int
        private var waiting: [CheckedContinuation<Void, Never>] = []
        init(_ count: Int) { self.count = count }
        func arrive() async {
            if waiting.count + 1 == count {
                for waiter in waiting { waiter.resume() }
                waiting = []
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }
    }

    struct Observation: Sendable {
        let onBackgroundThread = BackgroundExecutor.runsOnCurrentThread
        let thread = UInt(bitPattern: Int(bitPattern: pthread_self()))
        let nice = BackgroundExecutorTests.niceValue()
        let name = BackgroundExecutorTests.threadName()
    }

    /// What `top -H` and `perf` show for the current thread (Linux; empty elsewhere).
    static func threadName() -> String {
        let comm = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
        return comm?.trimmingCharacters(in: .newlines) ?? ""
    }

    static func niceValue() -> Int32 {
        #if os(Linux)
            getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #else
            0
        #endif
    }

    actor Counter {
        var value = 0
        func increment() { value += 1 }
    }
}
