import HummingbirdCore
import HummingbirdHTTP2
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOSSL
import NIOTLS

/// One TLS port for HTTP/2 and HTTP/1.1, chosen by ALPN, with the WebSocket upgrade on the HTTP/1.1 side; without
/// a TLS context, plain HTTP/1.1 with the same guards (behind a TLS-terminating proxy).
///
/// Hummingbird's `HTTP2UpgradeChannel` builds its HTTP/1.1 branch as a plain `HTTP1Channel` with no WebSocket
/// upgrade, so subscriptions (graphql-transport-ws needs HTTP/1.1's Upgrade) would need a second port. This does
/// the same ALPN split with `HTTP1WebSocketUpgradeChannel` as the HTTP/1.1 branch. Plain HTTP went through
/// Hummingbird's own channel, without the shutdown's deadline, and a WebSocket whose client answered no close held
/// the process for ever (an outside tester's find).
struct CarnetChannel: ServerChildChannel {
    typealias Negotiated = NIONegotiatedHTTPVersion<HTTP1WebSocketUpgradeChannel.Value, HTTP2Channel.Value>

    struct Value: ServerChildChannelValue {
        let negotiated: EventLoopFuture<Negotiated>
        let channel: any Channel
    }

    /// `nil`: plain HTTP/1.1.
    let sslContext: NIOSSLContext?
    let http1: HTTP1WebSocketUpgradeChannel
    let http2: HTTP2Channel
    /// How long the TLS handshake and the first request head (HTTP/1.1) or the protocol choice (HTTP/2) may take.
    let firstRequestTimeout: TimeAmount
    /// How long a connection may stay unwritable (``WriteStallTimeout``).
    let writeStallLimit: TimeAmount
    /// How long an HTTP/2 connection whose client sends nothing may stay open (see ``HTTP2ConnectionGuard``).
    let idleReapLimit: TimeAmount
    /// How long a connection may stay open once the server shuts down.
    let quiesceLimit: TimeAmount
    /// `SETTINGS_MAX_CONCURRENT_STREAMS` (``ServerConfiguration/maxConcurrentHTTP2Streams``).
    let maxStreams: Int
    /// `SETTINGS_MAX_HEADER_LIST_SIZE` (``ServerConfiguration/maxRequestHeadBytes``).
    let maxHeaderListSize: Int
    /// ``ServerConfiguration/maxBodyBytes``: a larger body announced gets no `100 Continue`.
    let maxBodyBytes: Int
    let gate: ConnectionGate
    /// Counts ``quiesceLimit`` from the start of the shutdown.
    let shutdown: ShutdownClock

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        guard gate.admit() else {
            logger.debug(
                "Connection refused: the server holds its most connections", metadata: ["limit": "\(gate.limit)"])
            channel.close(promise: nil)
            return channel.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel)
        }
        let gate = self.gate
        channel.closeFuture.whenComplete { _ in gate.release() }
        // Before any HTTP handler runs there is no idle timeout: a client that never finishes its handshake or its
        // first head would hold the connection for ever.
        let deadline = channel.eventLoop.scheduleTask(in: firstRequestTimeout) { channel.close(promise: nil) }
        channel.closeFuture.whenComplete { _ in deadline.cancel() }
        // In front of TLS from the start: a shutdown that begins during the handshake must not wait for the
        // first-request deadline, nor be lost on a connection whose protocol is chosen after it.
        let quiesce = QuiesceDeadline(limit: quiesceLimit, shutdown: shutdown)
        let writeStall = WriteStallTimeout(limit: writeStallLimit)
        guard let sslContext else {
            return channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(quiesce)
                try channel.pipeline.syncOperations.addHandler(writeStall)
            }.flatMap {
                setUpHTTP1(channel, deadline: deadline, quiesce: quiesce, logger: logger)
            }.map { value in
                Value(negotiated: channel.eventLoop.makeSucceededFuture(.http1_1(value)), channel: channel)
            }
        }
        return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(quiesce)
            try channel.pipeline.syncOperations.addHandler(writeStall)
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: sslContext))
            let alpn = NIOTypedApplicationProtocolNegotiationHandler<Negotiated> { result in
                switch result {
                case .negotiated("h2"):
                    // HTTP/2's connection and streams have their own idle timeouts from here.
                    deadline.cancel()
                    return http2.setup(channel: channel, logger: logger).flatMapThrowing { value in
                        let operations = channel.pipeline.syncOperations
                        let handler = try operations.handler(type: NIOHTTP2Handler.self)
                        try operations.addHandler(
                            HTTP2ConnectionGuard(
                                limit: idleReapLimit, quiesceLimit: quiesceLimit, shutdown: shutdown,
                                settings: [
                                    HTTP2Setting(parameter: .maxConcurrentStreams, value: maxStreams),
                                    HTTP2Setting(parameter: .maxHeaderListSize, value: maxHeaderListSize),
                                ]),
                            position: .before(handler))
                        try operations.addHandler(HTTP2ManagerFilter(), position: .after(handler))
                        quiesce.repeatIfQuiesced(channel)
                        return .http2(value)
                    }
                case .negotiated("http/1.1"), .fallback:
                    return setUpHTTP1(channel, deadline: deadline, quiesce: quiesce, logger: logger).map {
                        .http1_1($0)
                    }
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

    /// The HTTP/1.1 pipeline with its WebSocket upgrade, and the guard of its request heads.
    private func setUpHTTP1(
        _ channel: any Channel, deadline: Scheduled<Void>, quiesce: QuiesceDeadline, logger: Logger
    ) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try operations.addHandler(
                HTTP1RequestGuard(deadline: deadline, maxBodyBytes: maxBodyBytes), position: .after(decoder))
            quiesce.repeatIfQuiesced(channel)
            return value
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
