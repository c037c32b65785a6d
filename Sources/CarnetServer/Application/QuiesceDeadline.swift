import NIOCore

/// Closes an HTTP/1.1 connection (and a WebSocket upgraded from one) `limit` into a shutdown, whatever it is
/// doing: a WebSocket whose client stopped reading could not take its close frame, which waited behind the
/// payloads the client never read, and SIGTERM never finished (an outside sync tester's find). HTTP/2 connections
/// have ``HTTP2ConnectionGuard``. It stays in the pipeline through the upgrade, in front of TLS.
final class QuiesceDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let limit: TimeAmount
    private var timer: Scheduled<Void>?

    init(limit: TimeAmount) { self.limit = limit }

    func handlerRemoved(context: ChannelHandlerContext) { timer?.cancel() }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent, timer == nil {
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            timer = context.eventLoop.scheduleTask(in: limit) { bound.value.close(promise: nil) }
        }
        context.fireUserInboundEventTriggered(event)
    }
}
