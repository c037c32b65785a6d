import ArgumentParser
import CarnetServer
import CarnetStore
import Foundation
import Logging

/// `carnet serve`'s settings: each flag also reads a `CARNET_*` environment variable (the flag wins).
struct ServeOptions: ParsableArguments {
    @Option(help: "Address to listen on. Env: CARNET_HOST.")
    var host: String = environment("CARNET_HOST") ?? "127.0.0.1"

    @Option(help: "Port to listen on (0: any free port). Env: CARNET_PORT.")
    var port: Int = environment("CARNET_PORT").flatMap(Int.init) ?? 8443

    @Option(
        help:
            "PEM certificate chain (with --tls-key); without both, a development CA and certificate are made in the data folder. Env: CARNET_TLS_CERT."
    )
    var tlsCert: String?

    @Option(help: "PEM private key of --tls-cert. Env: CARNET_TLS_KEY.")
    var tlsKey: String?

    @Flag(help: "Serve plain HTTP (no TLS), only behind a TLS-terminating proxy. Env: CARNET_PLAIN_HTTP=1.")
    var plainHTTP = environment("CARNET_PLAIN_HTTP") == "1"

    @Option(
        name: .customLong("cors-origin"),
        help: "An origin browsers may call from (repeatable; * for any). Env: CARNET_CORS_ORIGINS (comma-separated).")
    var corsOrigins: [String] = environment("CARNET_CORS_ORIGINS")?.split(separator: ",").map(String.init) ?? []

    @Option(help: "Largest request body in bytes (413 above). Env: CARNET_MAX_BODY_BYTES.")
    var maxBodyBytes: Int = environment("CARNET_MAX_BODY_BYTES").flatMap(Int.init) ?? 1 << 20

    @Option(help: "Requests per second per token on average (0: no limit). Env: CARNET_RATE_LIMIT.")
    var rateLimit: Double = environment("CARNET_RATE_LIMIT").flatMap(Double.init) ?? 200

    @Option(help: "Requests a token may make at once above the rate. Env: CARNET_RATE_BURST.")
    var rateBurst: Int = environment("CARNET_RATE_BURST").flatMap(Int.init) ?? 400

    @Option(help: "Operations one WebSocket may run at once. Env: CARNET_MAX_SOCKET_OPERATIONS.")
    var maxSocketOperations: Int = environment("CARNET_MAX_SOCKET_OPERATIONS").flatMap(Int.init) ?? 100

    @Option(
        help: """
            Subscriptions one principal may hold open at once, across its sockets. \
            Env: CARNET_MAX_PRINCIPAL_SUBSCRIPTIONS.
            """)
    var maxPrincipalSubscriptions: Int =
        environment("CARNET_MAX_PRINCIPAL_SUBSCRIPTIONS").flatMap(Int.init) ?? 500

    @Flag(inversion: .prefixedEnableDisable, help: "Schema introspection. Env: CARNET_INTROSPECTION=0 disables.")
    var introspection = environment("CARNET_INTROSPECTION") != "0"

    @Option(
        help: "Seconds a new WebSocket has to send connection_init (4408 after). Env: CARNET_WEBSOCKET_INIT_TIMEOUT.")
    var websocketInitTimeout: Double = environment("CARNET_WEBSOCKET_INIT_TIMEOUT").flatMap(Double.init) ?? 3

    @Option(
        help: """
            Bytes of answers being built or not yet read by their clients the server holds; past them a request \
            gets 503 SERVER_BUSY. Env: CARNET_MAX_HELD_RESPONSE_BYTES.
            """)
    var maxHeldResponseBytes: Int = environment("CARNET_MAX_HELD_RESPONSE_BYTES").flatMap(Int.init) ?? 256 << 20

    @Option(help: "trace, debug, info, notice, warning, error or critical. Env: CARNET_LOG_LEVEL.")
    var logLevel: String = environment("CARNET_LOG_LEVEL") ?? "info"

    @Option(help: "text or json (one JSON object per line). Env: CARNET_LOG_FORMAT.")
    var logFormat: String = environment("CARNET_LOG_FORMAT") ?? "text"

    @Option(
        help:
            "Days of change history kept (fractions allowed); a client that syncs less often gets a full sync. Env: CARNET_HISTORY_RETENTION_DAYS."
    )
    var historyRetentionDays: Double = environment("CARNET_HISTORY_RETENTION_DAYS").flatMap(Double.init) ?? 30

    @Option(help: "The most address books a principal may own. Env: CARNET_BOOKS_PER_PRINCIPAL.")
    var booksPerPrincipal: Int = environment("CARNET_BOOKS_PER_PRINCIPAL").flatMap(Int.init) ?? 100

    @Option(help: "The most contacts an address book may hold. Env: CARNET_CONTACTS_PER_BOOK.")
    var contactsPerBook: Int = environment("CARNET_CONTACTS_PER_BOOK").flatMap(Int.init) ?? 1_000_000

    @Option(
        help: """
            The most address books kept open when idle (more while in use). Default: 2048, fewer if the open-file \
            limit (less a reserve for connections) does not allow them. Env: CARNET_OPEN_BOOKS.
            """)
    var openBooks: Int? = environment("CARNET_OPEN_BOOKS").flatMap(Int.init)

    var certificateChain: String? { tlsCert ?? environment("CARNET_TLS_CERT") }
    var privateKey: String? { tlsKey ?? environment("CARNET_TLS_KEY") }

    func validate() throws {
        guard (certificateChain == nil) == (privateKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key go together.")
        }
        guard !(plainHTTP && certificateChain != nil) else {
            throw ValidationError("--plain-http excludes --tls-cert.")
        }
        for (flag, path) in [("--tls-cert", certificateChain), ("--tls-key", privateKey)] {
            if let path, !FileManager.default.isReadableFile(atPath: path) {
                throw ValidationError("\(flag): cannot read \(path).")
            }
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535.") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("Unknown --log-level \(logLevel).") }
        guard ["text", "json"].contains(logFormat) else { throw ValidationError("--log-format is text or json.") }
        guard maxBodyBytes >= 1024 else { throw ValidationError("--max-body-bytes must be at least 1024.") }
        guard maxSocketOperations >= 1 else { throw ValidationError("--max-socket-operations must be at least 1.") }
        guard maxPrincipalSubscriptions >= 1 else {
            throw ValidationError("--max-principal-subscriptions must be at least 1.")
        }
        // At least an hour (a sync client needs time to come back), at most ten years (fits a GraphQL Int).
        guard booksPerPrincipal >= 1, contactsPerBook >= 1, (openBooks ?? 1) >= 1 else {
            throw ValidationError("--books-per-principal, --contacts-per-book and --open-books must be at least 1.")
        }
        guard historyRetentionDays.isFinite, (1.0 / 24...3650).contains(historyRetentionDays) else {
            throw ValidationError("--history-retention-days must be from 0.0417 (an hour) to 3650.")
        }
        guard websocketInitTimeout.isFinite, (0.1...3600).contains(websocketInitTimeout) else {
            throw ValidationError("--websocket-init-timeout must be from 0.1 to 3600 seconds.")
        }
        guard maxHeldResponseBytes >= 1 << 20 else {
            throw ValidationError("--max-held-response-bytes must be at least 1048576 (1 MiB).")
        }
    }

    func configuration(data: String, databaseURL: String? = nil) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.dataDirectory = data
        configuration.databaseURL = databaseURL
        configuration.host = host
        configuration.port = port
        if plainHTTP {
            configuration.transport = .plainHTTP
        } else if let tlsCert = certificateChain, let tlsKey = privateKey {
            configuration.transport = .certificateFiles(chain: tlsCert, privateKey: tlsKey)
        }
        configuration.allowedOrigins = corsOrigins
        configuration.maxBodyBytes = maxBodyBytes
        configuration.rateLimitPerSecond = rateLimit
        configuration.rateLimitBurst = rateBurst
        configuration.maxOperationsPerSocket = maxSocketOperations
        configuration.maxSubscriptionsPerPrincipal = maxPrincipalSubscriptions
        configuration.webSocketInitTimeout = .milliseconds(Int64((websocketInitTimeout * 1000).rounded()))
        configuration.maxHeldResponseBytes = maxHeldResponseBytes
        configuration.graphQLLimits.introspectionEnabled = introspection
        configuration.storeConfiguration.historyRetention = historyRetentionDays * 24 * 3600
        configuration.storeConfiguration.booksPerPrincipal = booksPerPrincipal
        configuration.storeConfiguration.contactsPerBook = contactsPerBook
        configuration.openBooks = openBooks
        return configuration
    }
}
