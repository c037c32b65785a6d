import CarnetGraphQL
import CarnetStore
import Hummingbird
import Logging
import ServiceLifecycle

/// The running service: Hummingbird's application plus what it is built on. Run it as a `Service` (for example
/// in a `ServiceGroup` with SIGTERM as a graceful-shutdown signal).
///
/// Shutdown happens in order: WebSocket sessions first (no new operations, in-flight ones finish, then close
/// 1001), then the HTTP server (stops accepting, finishes in-flight requests), then the backend (the open books, or
/// PostgreSQL's connection pool), so every request still running has its database until it ends. Hummingbird's own
/// WebSocket shutdown would close sockets with 1000 at once, which is why sessions are drained by a service of
/// their own that the group stops before the server.
public struct CarnetApplication: Service, CustomStringConvertible {
    /// Where everything is stored: the catalog and the books.
    public let backend: any StoreBackend
    /// The admin principal's default book, open for the service's lifetime.
    public let store: any ContactStore
    public let tokens: AccessTokens
    public let metrics: ServerMetrics
    public let service: GraphQLService
    /// The development certificates, when the transport uses them.
    public let certificates: DevelopmentCertificates?
    public let configuration: ServerConfiguration
    /// Hummingbird's application: the listener and the router (tests drive the router in process with it).
    let server: Application<RouterResponder<CarnetRequestContext>>
    let sessions: WebSocketSessions
    let shutdown: ShutdownClock
    let logger: Logger

    /// ServiceLifecycle names a service by its description in its log lines: the default one printed every stored
    /// property, the configuration's database URL (with its password) among them.
    public var description: String { "Carnet" }

    public func run() async throws {
        let drain = WebSocketDrainService(
            sessions: sessions, grace: configuration.shutdownGracePeriod, shutdown: shutdown)
        // Graceful shutdown runs in reverse order: the drain service, then the server, then the backend.
        let group = ServiceGroup(
            configuration: .init(services: [StoreBackendService(backend: backend), server, drain], logger: logger))
        try await group.run()
    }

    /// When the admin principal has no token (the first start), creates an `admin` token for it and returns its
    /// text, which is never stored and cannot be shown again.
    public func createAdminTokenIfFirstStart() async throws -> String? {
        let admin = try await backend.admin()
        guard try await backend.catalog.accessTokens(principalID: admin.id).isEmpty else { return nil }
        return try await tokens.create(name: "admin", scopes: [.read, .write], principalID: admin.id).token
    }
}

/// Holds the backend open for the service's lifetime and closes it last: after graceful shutdown (or
/// cancellation), once the services started after it have stopped.
struct StoreBackendService: Service, CustomStringConvertible {
    let backend: any StoreBackend
    var description: String { "Carnet's store backend" }

    func run() async throws {
        try? await gracefulShutdown()
        try await backend.close()
    }
}

/// Waits for graceful shutdown, then drains every WebSocket session.
struct WebSocketDrainService: Service, CustomStringConvertible {
    let sessions: WebSocketSessions
    let grace: Duration
    let shutdown: ShutdownClock
    var description: String { "Carnet's WebSocket drain" }

    func run() async throws {
        try? await gracefulShutdown()
        // The group stops services in reverse order: this one hears of the shutdown first.
        shutdown.begin()
        await sessions.drainAll(grace: grace)
    }
}
