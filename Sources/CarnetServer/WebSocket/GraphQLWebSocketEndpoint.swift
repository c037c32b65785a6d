import HTTPTypes
import HummingbirdWebSocket
import Logging
import NIOCore

/// Accepts WebSocket upgrades on `/graphql` for graphql-transport-ws.
struct GraphQLWebSocketEndpoint: Sendable {
    static let subprotocol = "graphql-transport-ws"
    let dependencies: GraphQLWebSocketSession.Dependencies
    let sessions: WebSocketSessions
    /// How often sockets are pinged, and how long a client may send nothing (``WebSocketKeepAlive``).
    let keepAlive: (interval: TimeAmount, timeout: TimeAmount)

    /// Whether a WebSocket may be opened at this request target: the GraphQL endpoint's, whatever its query.
    static func servesWebSocket(path: String) -> Bool { path.split(separator: "?", maxSplits: 1).first == "/graphql" }

    func shouldUpgrade(_ head: HTTPRequest, _ channel: any Channel, _ logger: Logger) async throws
        -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>>
    {
        // RFC 6455 upgrades a GET only; anything else is served (or refused) as the plain HTTP request it is.
        guard head.method == .get, Self.servesWebSocket(path: head.path ?? "") else { return .dontUpgrade }
        let offered = head.headerFields[values: .secWebSocketProtocol]
            .flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            .contains(Self.subprotocol)
        // Browsers cannot set headers on a WebSocket; other clients may authenticate the upgrade itself.
        let identity: AccessIdentity? =
            if let header = head.headerFields[.authorization], let token = bearerToken(header) {
                try await dependencies.tokens.verify(token)
            } else {
                nil
            }
        var headers: HTTPFields = [:]
        if offered { headers[.secWebSocketProtocol] = Self.subprotocol }
        // Behind TLS or a proxy alike: the check goes in as the upgrade is answered, before any frame is read.
        let keepAlive = self.keepAlive
        try await channel.pipeline.addHandler(
            WebSocketMaskCheck.Installer {
                WebSocketKeepAlive(interval: keepAlive.interval, timeout: keepAlive.timeout)
            })
        let (dependencies, sessions) = (self.dependencies, self.sessions)
        return .upgrade(headers) { inbound, outbound, context in
            let session = GraphQLWebSocketSession(
                dependencies, outbound: outbound, channel: channel, logger: context.logger,
                upgradeIdentity: identity)
            guard offered else {
                return await session.close(.subprotocolNotAcceptable, "Subprotocol not acceptable")
            }
            guard sessions.add(session) else {
                return await session.close(code: .goingAway, "Server shutting down")
            }
            dependencies.metrics.webSocketsOpen.increment()
            defer {
                sessions.remove(session)
                dependencies.metrics.webSocketsOpen.decrement()
            }
            try await session.run(inbound)
        }
    }
}
