import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS

/// A connection to the test server that sends exactly the bytes it is given and reads until the server closes:
/// for clients that stall or misbehave, which real HTTP clients will not do. Its channel must be read with
/// ``sendAndReadUntilClosed(_:limit:)`` (an NIOAsyncChannel never used that way traps when it is freed); cancelling
/// the task that reads closes it.
struct RawConnection {
    let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
    /// Succeeds when the TLS handshake has completed (at once without TLS); fails if the connection ends first.
    let handshake: EventLoopFuture<Void>

    /// Connects over TCP, with TLS (verified against the development CA, offering `alpn`) unless `caPath` is nil.
    /// - Parameter holdUntil: when given, nothing is sent (not even TLS's first message) until it completes.
    static func open(
        port: Int, caPath: String?, alpn: [String] = ["http/1.1"], holdUntil: EventLoopFuture<Void>? = nil
    ) async throws -> RawConnection {
        let (channel, handshake) = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AbruptCloser(), position: .first)
                    if let holdUntil {
                        try channel.pipeline.syncOperations.addHandler(OutboundHold(until: holdUntil))
                    }
                    let handshake = channel.eventLoop.makePromise(of: Void.self)
                    if let caPath {
                        var tls = TLSConfiguration.makeClientConfiguration()
                        tls.trustRoots = .file(caPath)
                        tls.applicationProtocols = alpn
                        let handler = try NIOSSLClientHandler(
                            context: NIOSSLContext(configuration: tls), serverHostname: "localhost")
                        try channel.pipeline.syncOperations.addHandler(handler)
                        try channel.pipeline.syncOperations.addHandler(HandshakeWatcher(promise: handshake))
                    } else {
                        handshake.succeed()
                    }
                    return (
                        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel),
                        handshake.futureResult
                    )
                }
            }
        return RawConnection(channel: channel, handshake: handshake)
    }

    /// Sends `text`, then reads everything until the server closes the connection (or resets it, or TLS fails):
    /// what arrived. Gives up after `limit` so that a server that never closes fails the test instead of hanging it.
    /// - Parameter received: called with each piece that arrives.
    func sendAndReadUntilClosed(
        _ text: String = "", limit: Duration = .seconds(120), received: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> String {
        let bytes = try await sendAndReadUntilClosed(bytes: Array(text.utf8), limit: limit) { piece in
            received(String(decoding: piece, as: UTF8.self))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``sendAndReadUntilClosed(_:limit:received:)`` for bytes that are not text (HTTP/2 frames).
    func sendAndReadUntilClosed(
        bytes: [UInt8], limit: Duration = .seconds(120), received: @escaping @Sendable ([UInt8]) -> Void = { _ in }
    ) async throws -> [UInt8] {
        let onReceive = received
        return try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
            group.addTask {
                try await channel.executeThenClose { inbound, outbound in
                    // A server that answers before all of `bytes` is written (a head over its limit) and closes
                    // fails the rest of the write: its answer is still read.
                    if !bytes.isEmpty { try? await outbound.write(ByteBuffer(bytes: bytes)) }
                    var received: [UInt8] = []
                    do {
                        for try await buffer in inbound {
                            received += buffer.readableBytesView
                            onReceive(Array(buffer.readableBytesView))
                        }
                    } catch {
                        // A reset or a TLS alert ends the connection too.
                    }
                    return received
                }
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let received = first else {
                throw RawConnectionError.stillOpen
            }
            return received
        }
    }

    /// Sends `text` once TLS is up and closes at once, reading nothing: a client that leaves before the server
    /// answers. The server may have closed first (its deadline on a loaded machine): that is no failure here.
    func sendAndClose(_ text: String) async {
        try? await handshake.get()
        try? await channel.executeThenClose { _, outbound in
            if !text.isEmpty { try await outbound.write(ByteBuffer(string: text)) }
        }
    }

    /// Sends `text`, waits for `ready`, then closes the socket with a FIN but without TLS's close_notify (a ragged
    /// close), reading nothing: a client process that closed its socket or exited while its request ran.
    func send(_ text: String, thenDropWhen ready: @Sendable () async throws -> Void) async throws {
        try await handshake.get()
        try await channel.executeThenClose { _, outbound in
            try await outbound.write(ByteBuffer(string: text))
            try await ready()
            try await channel.channel.triggerUserOutboundEvent(AbruptCloser.Drop())
        }
    }

    /// Sends `text` once TLS is up and resets the connection: no TLS close_notify, no FIN, as a client that crashed.
    /// The server may have closed first: that is no failure here.
    func sendAndReset(_ text: String) async {
        try? await handshake.get()
        try? await channel.executeThenClose { _, outbound in
            if !text.isEmpty { try? await outbound.write(ByteBuffer(string: text)) }
            try await channel.channel.triggerUserOutboundEvent(AbruptCloser.Reset())
        }
    }
}

/// Sits next to the socket, under TLS: told to reset, it closes the socket with SO_LINGER 0, so that TLS never sends
/// its close_notify and the peer sees a reset.
private final class AbruptCloser: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    struct Reset {}
    struct Drop {}

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        // Closed from here, the close goes to the socket without passing TLS.
        if event is Drop { return context.close(promise: promise) }
        guard event is Reset else { return context.triggerUserOutboundEvent(event, promise: promise) }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        guard let socket = context.channel as? any SocketOptionProvider else {
            return context.close(promise: promise)
        }
        socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in bound.value.close(promise: promise) }
    }
}

/// Completes its promise when the TLS handshake does, or fails it when the connection ends before.
private final class HandshakeWatcher: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    private let promise: EventLoopPromise<Void>
    private var done = false

    init(promise: EventLoopPromise<Void>) { self.promise = promise }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted = event as? TLSUserEvent, !done {
            done = true
            promise.succeed()
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !done {
            done = true
            promise.fail(RawConnectionError.closedBeforeHandshake)
        }
        context.fireChannelInactive()
    }
}

enum RawConnectionError: Error {
    case stillOpen
    case closedBeforeHandshake
}
