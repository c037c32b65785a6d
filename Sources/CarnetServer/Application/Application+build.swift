import CarnetGraphQL
import CarnetStore
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOSSL

/// Builds the service: opens (creating, or upgrading in place) the data folder with its catalog and books, makes
/// or loads the TLS material, and wires routes, authentication, WebSocket and metrics. `carnet serve` and the
/// tests both call this.
///
/// - Parameters:
///   - onServerRunning: called with the bound port once the listener accepts connections.
///   - additionalRoutes: adds routes beside Carnet's own (the server benchmark's static answer, a test's probe);
///     they get the same middleware (request log, CORS) and no authentication.
public func buildApplication(
    configuration: ServerConfiguration, logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in },
    additionalRoutes: (Router<CarnetRequestContext>) -> Void = { _ in }
) async throws -> CarnetApplication {
    let backend = try await openBackend(configuration, logger: logger)
    let admin = try await backend.admin()
    guard let adminBookID = admin.defaultBookID, let adminBook = try await backend.catalog.book(id: adminBookID) else {
        throw StoreError(.storageFailure, "The admin principal has no default address book.")
    }
    // The admin's default book stays open for the service's lifetime: health checks and metrics read it.
    let store = try await backend.books.acquire(adminBook)
    let metrics = ServerMetrics()
    let tokens = AccessTokens(
        catalog: backend.catalog, defaultPrincipalID: admin.id, cacheLifetime: configuration.tokenCacheLifetime)
    let service = GraphQLService(
        store: store, limits: configuration.graphQLLimits, options: configuration.graphQLOptions
    ) { error in
        var metadata: Logger.Metadata = ["error.type": "\(String(reflecting: type(of: error)))"]
        // Carnet's own faults name fields and keys only, never data: their reason is safe to log.
        if let fault = error as? ExecutionFault { metadata["error.reason"] = "\(fault)" }
        logger.error("Unexpected error while executing GraphQL", metadata: metadata)
    }
    let sessions = WebSocketSessions()
    let limiter = RateLimiter(rate: configuration.rateLimitPerSecond, burst: configuration.rateLimitBurst)
    // One budget for the answers clients have not read yet, over HTTP and WebSocket alike.
    let responseBudget = ResponseMemoryBudget(limit: configuration.maxHeldResponseBytes)
    let router = buildRouter(
        configuration: configuration, service: service, books: backend.books, tokens: tokens, limiter: limiter,
        metrics: metrics, responseBudget: responseBudget)
    additionalRoutes(router)
    let endpoint = GraphQLWebSocketEndpoint(
        dependencies: .init(
            service: service, tokens: tokens, books: backend.books, metrics: metrics,
            maxMessageBytes: configuration.maxBodyBytes, maxOperations: configuration.maxOperationsPerSocket,
            maxRunningRequests: configuration.maxRunningRequestsPerSocket,
            initTimeout: configuration.webSocketInitTimeout, limiter: limiter, responseBudget: responseBudget,
            subscriptionQuota: SubscriptionQuota(limit: configuration.maxSubscriptionsPerPrincipal)),
        sessions: sessions,
        keepAlive: (
            interval: .nanoseconds(configuration.webSocketPingInterval.nanoseconds),
            timeout: .nanoseconds(configuration.writeStallTimeout.nanoseconds)
        ))
    let shutdown = ShutdownClock()
    let channel = ServerChannels(configuration: configuration, endpoint: endpoint, shutdown: shutdown)
    let (builder, certificates) = try channel.builder()
    let app = Application(
        router: router, server: builder,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Carnet"),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: logger.cappedAtDebug)
    return CarnetApplication(
        backend: backend, store: store, tokens: tokens, metrics: metrics, service: service,
        certificates: certificates, configuration: configuration, server: app, sessions: sessions, shutdown: shutdown,
        logger: logger)
}

/// The listener's channel setup for each transport.
struct ServerChannels {
    let configuration: ServerConfiguration
    let endpoint: GraphQLWebSocketEndpoint
    let shutdown: ShutdownClock

    func builder() throws -> (HTTPServerBuilder, DevelopmentCertificates?) {
        let idle = TimeAmount.nanoseconds(configuration.idleTimeout.nanoseconds)
        let bodyTimeout = TimeAmount.nanoseconds(configuration.bodyTimeout.nanoseconds)
        let writeStall = TimeAmount.nanoseconds(configuration.writeStallTimeout.nanoseconds)
        // Hummingbird's idle timeouts (for HTTP/1.1 and each HTTP/2 stream) are off: ``HTTPIdleTimeout`` counts an
        // answer a slow client is still reading as activity.
        let deadlines = { @Sendable () -> [any RemovableChannelHandler] in
            [RequestBodyDeadlineHandler(timeout: bodyTimeout), HTTPIdleTimeout(idle: idle, stall: writeStall)]
        }
        let webSocket = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(
                additionalChannelHandlers: deadlines(), idleTimeout: nil,
                httpDecoderConfiguration: .init(
                    maxHeaderFieldSize: configuration.maxRequestHeadBytes,
                    maxHeaderListSize: configuration.maxRequestHeadBytes)),
            // Text that is not UTF-8 fails the socket (1007), as RFC 6455 requires; unchecked, its bytes were
            // replaced and an id came back other than sent.
            ws: .init(
                maxFrameSize: configuration.maxBodyBytes, autoPing: .disabled,
                closeTimeout: .seconds(5), validateUTF8: true))
        let endpoint = self.endpoint
        let shouldUpgrade = { @Sendable (head: HTTPRequest, channel: any Channel, logger: Logger) in
            try await endpoint.shouldUpgrade(head, channel, logger)
        }
        let (paths, certificates): ((chain: String, key: String)?, DevelopmentCertificates?)
        switch configuration.transport {
        case .plainHTTP:
            (paths, certificates) = (nil, nil)
        case .certificateFiles(let chain, let key):
            (paths, certificates) = ((chain, key), nil)
        case .developmentCertificate:
            let generated = try DevelopmentCertificates.ensure(in: configuration.certificateDirectory)
            (paths, certificates) = ((generated.certificatePath, generated.privateKeyPath), generated)
        }
        let sslContext = try paths.map { paths in
            try NIOSSLContext(
                configuration: TLSSettings.server(
                    chain: try TLSFileError.loading(paths.chain, "certificate chain") {
                        try NIOSSLCertificate.fromPEMFile($0)
                    },
                    key: try TLSFileError.loading(paths.key, "private key") {
                        try NIOSSLPrivateKey(file: $0, format: .pem)
                    }, alpn: ["h2", "http/1.1"]))
        }
        let http2 = HTTP2ChannelConfiguration(
            idleTimeout: configuration.idleTimeout, gracefulCloseTimeout: .seconds(5),
            streamConfiguration: .init(
                additionalChannelHandlers: deadlines() + [
                    HTTP2FrameHandlersInstaller(maxBodyBytes: configuration.maxBodyBytes), HTTP2StreamTracker(),
                ],
                idleTimeout: nil))
        let gate = ConnectionGate(limit: connectionLimit(configuration))
        let firstRequestTimeout = TimeAmount.nanoseconds(configuration.firstRequestTimeout.nanoseconds)
        let builder = HTTPServerBuilder { responder in
            CarnetChannel(
                sslContext: sslContext,
                http1: HTTP1WebSocketUpgradeChannel(
                    responder: responder, configuration: webSocket, shouldUpgrade: shouldUpgrade),
                http2: HTTP2Channel(responder: responder, configuration: http2),
                firstRequestTimeout: firstRequestTimeout, writeStallLimit: writeStall,
                // Past the graceful close (the idle timeout, then its grace once the client acknowledges).
                idleReapLimit: .nanoseconds((configuration.idleTimeout + .seconds(15)).nanoseconds),
                quiesceLimit: .nanoseconds((configuration.shutdownGracePeriod + .seconds(5)).nanoseconds),
                maxStreams: configuration.maxConcurrentHTTP2Streams,
                maxHeaderListSize: configuration.maxRequestHeadBytes, maxBodyBytes: configuration.maxBodyBytes,
                gate: gate, shutdown: shutdown)
        }
        return (builder, certificates)
    }
}
