import Foundation
import Logging

/// One line per message on standard output, in swift-log's `StreamLogHandler` layout.
///
/// `StreamLogHandler` formats its metadata whenever it changes, and the HTTP server sets a request id on a logger
/// for every request, so each request paid for text that is only read when a line is written (rarely, at the
/// default level). This one formats when it writes.
struct TextLogHandler: StoredMetadataLogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    func log(event: LogEvent) {
        let merged = metadata(of: event)
        let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let time = ISO8601DateFormatter.string(from: Date(), timeZone: .current, formatOptions: [.withInternetDateTime])
        OutputDescriptor.standardOutput.writeLine(
            "\(time) \(event.level) \(label) :\(fields.isEmpty ? "" : " " + fields) [\(event.source)] \(event.message)")
    }
}
