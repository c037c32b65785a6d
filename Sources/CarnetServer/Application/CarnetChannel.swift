import HummingbirdCore
import HummingbirdHTTP2
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP2
import NIOSSL
import NIOTLS

/// One TLS port for HTTP/2 and HTTP/1.1, chosen by ALPN, with the WebSocket upgrade on the HTTP/1.1 side.
///
/// Hummingbird's `HTTP2UpgradeChannel` builds its HTTP/1.1 branch as a plain `HTTP1Channel` with no WebSocket
/// upgrade, so subscriptions (graphql-transport-ws needs HTTP/1.1's Upgrade) would need a second port. This does
/// the same ALPN split with `HTTP1WebSocketUpgradeChannel` as the HTTP/1.1 branch.
struct CarnetChannel: ServerChildChannel {
    typealias Negotiated = NIONegotiatedHTTPVersion<HTTP1WebSocketUpgradeChannel.Value, HTTP2Channel.Value>

    struct Value: ServerChildChannelValue {
        let negotiated: EventLoopFuture<Negotiated>
        let channel: any Channel
    }

    let sslContext: NIOSSLContext
    let http1: HTTP1WebSocketUpgradeChannel
    let http2: HTTP2Channel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
            let alpn = NIOTypedApplicationProtocolNegotiationHandler<Negotiated> { result in
                switch result {
                case .negotiated("h2"):
                    return http2.setup(channel: channel, logger: logger).map { .http2($0) }
                case .negotiated("http/1.1"), .fallback:
                    return http1.setup(channel: channel, logger: logger).map { .http1_1($0) }
                case .negotiated:
                    return channel.close().flatMap {
                        channel.eventLoop.makeFailedFuture(NIOHTTP2Errors.invalidALPNToken())
                    }
                }
            }
            try channel.pipeline.syncOperations.addHandler(alpn)
            return Value(negotiated: alpn.protocolNegotiationResult, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.negotiated.get() {
            case .http1_1(let connection): await http1.handle(value: connection, logger: logger)
            case .http2(let connection): await http2.handle(value: connection, logger: logger)
            }
        } catch {
            // Failed handshakes (wrong CA, old TLS version, scanners) are the client's business.
            logger.debug("TLS or ALPN negotiation failed", metadata: ["error": "\(error)"])
        }
    }
}
