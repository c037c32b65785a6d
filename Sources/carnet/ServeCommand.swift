import ArgumentParser
import CarnetServer
import CarnetStore
import CarnetStoreSQLite
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

extension Carnet {
    /// `carnet serve`: the GraphQL service over TLS (the default command).
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the GraphQL service (HTTP/1.1, HTTP/2 and WebSocket over TLS) on the local database.")

        @OptionGroup var data: DataOptions
        @OptionGroup var options: ServeOptions

        func run() async throws {
            let format = options.logFormat
            let level = Logger.Level(rawValue: options.logLevel) ?? .info
            LoggingSystem.bootstrap { label in
                var handler: any LogHandler =
                    format == "json"
                    ? JSONLogHandler(label: label) : TextLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
            let logger = Logger(label: "carnet")
            // Each open address book holds a few descriptors; the soft default (often 1,024) would keep few open.
            FileDescriptorBudget.raiseToHardLimit()
            let configuration = options.configuration(data: data.data, databaseURL: data.database)
            // The first start's token, announced once the listener has its port (with --port 0, the one the system
            // chose), before the line that says the server is up.
            let firstToken = Mutex<(token: String, ca: String?)?>(nil)
            let app = try await buildApplication(configuration: configuration, logger: logger) { port in
                if let first = firstToken.withLock({ $0.take() }) {
                    Self.printFirstToken(first.token, configuration: configuration, port: port, ca: first.ca)
                }
                let scheme = configuration.transport == .plainHTTP ? "http" : "https"
                let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
                say("Carnet is listening on \(scheme)://\(host):\(port)/graphql")
            }
            if let certificates = app.certificates {
                say("Development CA: \(certificates.caPath)  (clients: curl --cacert \(certificates.caPath) ...)")
            }
            if let token = try await app.createAdminTokenIfFirstStart() {
                firstToken.withLock { $0 = (token, app.certificates?.caPath) }
            }
            let group = ServiceGroup(
                configuration: .init(
                    services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            // The application closes the backend (every book, or the PostgreSQL pool) when it stops.
            try await group.run()
        }

        static func printFirstToken(_ token: String, configuration: ServerConfiguration, port: Int, ca: String?) {
            let scheme = configuration.transport == .plainHTTP ? "http" : "https"
            let host = configuration.host == "127.0.0.1" && ca != nil ? "localhost" : configuration.host
            let cacert = ca.map { " --cacert \($0)" } ?? ""
            say(
                """

                First start: created the admin token (read, write). It is shown only this once:

                    \(token)

                Try it:

                    curl\(cacert) -H 'Authorization: Bearer \(token)' \\
                      -H 'Content-Type: application/json' \\
                      -d '{"query":"{ contacts(first: 5) { totalCount nodes { id displayName } } }"}' \\
                      \(scheme)://\(host):\(port)/graphql

                More tokens: carnet token create --name NAME --scope read --scope write --author APP

                """)
        }
    }
}

/// Prints a line unbuffered, so it reaches a pipe (a supervisor, a test) at once.
func say(_ text: String) {
    OutputDescriptor.standardOutput.writeLine(text)
}
