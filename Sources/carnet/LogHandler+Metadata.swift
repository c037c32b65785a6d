import Logging

/// A log handler that keeps its metadata in a plain dictionary and reads it only when it writes a line.
protocol StoredMetadataLogHandler: LogHandler {
    var metadata: Logger.Metadata { get set }
}

extension StoredMetadataLogHandler {
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// The handler's metadata with the event's own on top.
    func metadata(of event: LogEvent) -> Logger.Metadata {
        metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 })
    }
}
