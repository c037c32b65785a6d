import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A thread of its own, at a lower scheduling priority, for bulk work (a vCard import) that must not slow the
/// requests served beside it.
///
/// On two cores an import's parsing and its writer's inserts ran at a request's weight, and the hops of a save to
/// another book (event loop, cooperative pool, writer) queued behind them: p90 3.8 ms and p99 9.5 ms against 1.3
/// and 2.1 ms idle. Work run with ``run(_:)`` stays on this thread (its awaits resume here), and a backend whose
/// writes can run on the calling thread (``runsOnCurrentThread``) runs them here too, so the whole import has the
/// thread's low weight: it still takes every idle cycle, but gives way to a request. On Linux the thread's nice
/// value is raised to ``niceness``, which any process may do.
public final class BackgroundExecutor: TaskExecutor, @unchecked Sendable {
    /// The nice value of the thread (Linux): weight 110 against a request's 1,024.
    public static let niceness: Int32 = 10

    /// A kind of background work: its threads' nice value and how many may be alive at once.
    public final class Lane: Sendable {
        public let niceness: Int32
        /// Threads alive at most at once. Past them an operation runs where it was called, at its caller's
        /// priority: many at once cost no more threads.
        public let maximumThreads: Int
        fileprivate let running = Atomic<Int>(0)

        public init(niceness: Int32, maximumThreads: Int) {
            self.niceness = niceness
            self.maximumThreads = maximumThreads
        }

        /// Bulk work: vCard imports.
        public static let bulk = Lane(
            niceness: BackgroundExecutor.niceness, maximumThreads: BackgroundExecutor.maximumThreads)
    }

    private let niceness: Int32

    private let queue = NSCondition()
    private var jobs: [UnownedJob] = []
    /// The operation has returned: the thread ends once no job is queued.
    private var stopping = false
    /// A thread is draining the queue.
    private var draining = false
    private var finishing: CheckedContinuation<Void, Never>?

    private init(niceness: Int32) { self.niceness = niceness }

    /// Background threads alive at most at once. Past them an operation runs where it was called, at its caller's
    /// priority: many imports at once (a client sending one after another without waiting) cost no more threads.
    public static let maximumThreads = 4

    /// Runs `operation` on a new background thread, which ends with it (or, with ``maximumThreads`` busy, right
    /// here).
    public static func run<T: Sendable>(_ operation: @Sendable () async throws -> T) async throws -> T {
        try await run(on: .bulk) { try await operation() }
    }

    /// Runs `operation` on a new thread of `lane`, which ends with it (or, with the lane's threads all busy,
    /// right here).
    public static func run<T: Sendable>(on lane: Lane, _ operation: () async throws -> T) async throws -> T {
        let count = lane.running.add(1, ordering: .relaxed).newValue
        defer { lane.running.subtract(1, ordering: .relaxed) }
        guard count <= lane.maximumThreads || ignoresThreadLimit else { return try await operation() }
        let executor = BackgroundExecutor(niceness: lane.niceness)
        executor.draining = true
        executor.startThread()
        let result: Result<T, any Error>
        do {
            result = .success(try await withTaskExecutorPreference(executor) { try await operation() })
        } catch {
            result = .failure(error)
        }
        // The thread is gone when this returns, and the caller resumes off it.
        await executor.finish()
        return try result.get()
    }

    /// Tests that check where work runs set this: in a whole suite, other tests' imports hold threads too.
    @TaskLocal static var ignoresThreadLimit = false

    /// Whether the caller runs on a background executor's thread, where blocking on a write is what it is for.
    public static var runsOnCurrentThread: Bool {
        current.withLock { $0.contains(Self.currentThreadID) }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        queue.lock()
        jobs.append(UnownedJob(job))
        // A job of a task that outlived the operation and kept its preference would come after the thread ended
        // (in Swift 6.3 none does: unstructured tasks do not inherit it). It runs on this executor, on a new
        // thread: run elsewhere, the runtime could hand it back here.
        let restart = !draining
        draining = true
        queue.signal()
        queue.unlock()
        if restart { startThread() }
    }

    private func startThread() {
        let thread = Thread {
            // Set from the thread itself (Foundation's `Thread.name` did not always reach the kernel's name, which
            // is what `top -H` and `perf` show). At most 15 bytes.
            Self.nameCurrentThread("carnet.bg")
            self.drain()
        }
        thread.start()
    }

    /// Runs jobs until the operation has returned and none is queued.
    private func drain() {
        lowerPriority()
        let id = Self.currentThreadID
        Self.current.withLock { _ = $0.insert(id) }
        defer { Self.current.withLock { _ = $0.remove(id) } }
        while true {
            queue.lock()
            while jobs.isEmpty && !stopping { queue.wait() }
            if jobs.isEmpty {
                draining = false
                let waiter = finishing
                finishing = nil
                queue.unlock()
                waiter?.resume()
                return
            }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            queue.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }

    /// Ends the thread once the jobs queued have run, and returns when it has: the operation has returned.
    private func finish() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.lock()
            stopping = true
            finishing = continuation
            queue.signal()
            queue.unlock()
        }
    }

    /// Names the calling thread (Linux): what `top -H` and `perf` show. Glibc's `pthread_setname_np` is not
    /// visible to Swift, and the kernel takes the name from this file too.
    private static func nameCurrentThread(_ name: String) {
        #if os(Linux)
            let file = open("/proc/thread-self/comm", O_WRONLY)
            guard file >= 0 else { return }
            defer { close(file) }
            var bytes = Array(name.utf8.prefix(15))
            _ = write(file, &bytes, bytes.count)
        #endif
    }

    private func lowerPriority() {
        #if os(Linux)
            // On Linux the nice value is per thread, and `who` 0 is the calling thread, not the process. Never
            // below the process's own: lowering it needs a privilege, and the process may run niced already.
            let which = __priority_which_t(PRIO_PROCESS.rawValue)
            errno = 0
            let current = getpriority(which, 0)
            guard errno == 0, current < niceness else { return }
            _ = setpriority(which, 0, niceness)
        #endif
    }

    private static var currentThreadID: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }
    private static let current = Mutex<Set<UInt>>([])
}
