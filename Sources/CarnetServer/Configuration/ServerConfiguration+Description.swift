import Foundation

/// What a log line may say of the configuration. Swift's default description printed every setting, the database
/// URL's password included, and ServiceLifecycle prints its services (the application holds the configuration) at
/// `.debug` when they start and stop (an outside tester's find).
extension ServerConfiguration: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String {
        let storage = databaseURL.map { "database: \(Self.redacted($0))" } ?? "data: \(dataDirectory)"
        return "ServerConfiguration(\(host):\(port), \(transport), \(storage))"
    }

    public var debugDescription: String { description }

    /// `url` without its password (and without its user's name when it cannot be read as a URL).
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return "(a database URL)" }
        if components.password != nil { components.password = "redacted" }
        return components.string ?? "(a database URL)"
    }
}
