import NIOCore
import Synchronization

/// When the service's shutdown began, so that every limit into it counts from there. The WebSocket sessions drain
/// before the listener hears of the shutdown; a connection's limit counted from the moment the listener did came
/// after the whole drain, and a client that read nothing held the process for the drain and the limit both (25 s
/// and more past SIGTERM, an outside tester's find).
final class ShutdownClock: Sendable {
    private let start = Mutex<NIODeadline?>(nil)

    /// Notes that the shutdown begins now, unless it began before.
    func begin() { start.withLock { if $0 == nil { $0 = .now() } } }

    /// `limit` into the shutdown (from now if it has not begun).
    func deadline(after limit: TimeAmount) -> NIODeadline { (start.withLock { $0 } ?? .now()) + limit }
}
