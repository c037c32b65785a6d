import Dispatch
import Foundation

/// Blocking work a test needs (holding a lock, waiting on a semaphore), each on a thread of its own.
///
/// On Linux, Swift's cooperative pool runs on dispatch's global-queue threads, one per core, and so do
/// `DispatchQueue.global()` blocks and GRDB's database queues. A test that blocks one of those threads takes a core's
/// worth of every other test in the process; two took all of them on CI's 2 cores, and the whole suite stood still
/// until dispatch's monitor added a thread (seconds, more under load). A thread of its own blocks nothing else.
package enum OffPool {
    /// Runs `body` on a new thread.
    package static func run(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.start()
    }

    /// Waits for `semaphore` on a thread of its own.
    package static func wait(for semaphore: DispatchSemaphore) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            run {
                semaphore.wait()
                continuation.resume()
            }
        }
    }

    /// Signals each semaphore after `delay`, counted on a thread of its own rather than a dispatch timer, which
    /// needs a free global-queue thread to fire.
    package static func signal(_ semaphores: [DispatchSemaphore], after delay: Duration) {
        run {
            Thread.sleep(
                forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
            for semaphore in semaphores { semaphore.signal() }
        }
    }
}
