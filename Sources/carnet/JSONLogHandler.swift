import Foundation
import Logging

/// One JSON object per line on standard output: time, level, label, message and metadata, for log collectors.
struct JSONLogHandler: StoredMetadataLogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    func log(event: LogEvent) {
        var object: [String: Any] = [
            "time": ISO8601DateFormatter.string(
                from: Date(), timeZone: .gmt,
                formatOptions: [.withInternetDateTime, .withFractionalSeconds]),
            "level": event.level.rawValue, "label": label, "message": event.message.description,
        ]
        for (key, value) in metadata(of: event) {
            object[key] = Self.plain(value)
        }
        guard var line = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        line.append(0x0A)
        try? OutputDescriptor.standardOutput.write(line)
    }

    private static func plain(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let value): value.description
        case .array(let values): values.map(plain)
        case .dictionary(let values): values.mapValues(plain)
        }
    }
}
