import Logging
import Synchronization

/// Keeps what a test server logs at `.warning` and above (or from ``level``), so that a test can check that hostile or unlucky clients
/// leave no error behind: the server logs unmapped failures at `.error`, and a client's own mistake must not read
/// as one.
final class LogRecorder: Sendable {
    struct Entry: Sendable, CustomStringConvertible {
        let level: Logger.Level
        let message: String
        let metadata: String
        var description: String { "[\(level)] \(message) \(metadata)" }
    }

    private let entries = Mutex<[Entry]>([])
    /// The level the test server logs at: `.warning` unless a test looks at what lower levels say.
    let level: Logger.Level

    init(level: Logger.Level = .warning) { self.level = level }

    /// What was logged at `level` or above, in order.
    func logged(atLeast level: Logger.Level) -> [Entry] {
        entries.withLock { $0.filter { $0.level >= level } }
    }

    fileprivate func record(_ entry: Entry) { entries.withLock { $0.append(entry) } }

    /// A logger writing to this recorder.
    func logger(label: String) -> Logger {
        Logger(label: label) { _ in Handler(recorder: self) }
    }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .warning

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            recorder.record(
                Entry(level: event.level, message: "\(event.message)", metadata: all.isEmpty ? "" : "\(all)"))
        }
    }
}
