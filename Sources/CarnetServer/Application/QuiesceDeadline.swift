import NIOCore

/// Closes a connection `limit` into a shutdown (counted from its start, ``ShutdownClock``), whatever it is doing. A WebSocket whose client stopped reading
/// could not take its close frame, which waited behind the payloads the client never read, and SIGTERM never
/// finished (an outside sync tester's find). It is the pipeline's first handler from the connection's start, in
/// front of TLS, and stays through the upgrade; HTTP/2 connections also have ``HTTP2ConnectionGuard``.
///
/// A shutdown that began during the TLS handshake reached no HTTP handler: the connection then lived on until the
/// first-request deadline, or, once HTTP/2 was chosen, until the idle limit. ``repeatIfQuiesced(_:)`` tells the
/// handlers added after the handshake.
final class QuiesceDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let limit: TimeAmount
    private let shutdown: ShutdownClock
    private var timer: Scheduled<Void>?
    /// A shutdown has begun (read on the channel's event loop).
    private var quiesced = false

    init(limit: TimeAmount, shutdown: ShutdownClock) {
        self.limit = limit
        self.shutdown = shutdown
    }

    func handlerRemoved(context: ChannelHandlerContext) { timer?.cancel() }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent, !quiesced {
            quiesced = true
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            timer = context.eventLoop.scheduleTask(deadline: shutdown.deadline(after: limit)) {
                bound.value.close(promise: nil)
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Sends the shutdown again through `channel`'s pipeline, once its protocol's handlers are in place, if it
    /// began before them. On the channel's event loop.
    func repeatIfQuiesced(_ channel: any Channel) {
        guard quiesced else { return }
        channel.pipeline.syncOperations.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
    }
}
