import NIOCore
import NIOHTTP2

/// Closes an HTTP/2 connection that has had no open stream for `limit`, whatever its client does or does not
/// answer. Hummingbird's connection manager closes an idle connection gracefully: GOAWAY and a PING, then a grace
/// period that starts only when the PING is acknowledged. A client that never acknowledges it kept its connection
/// for ever, and enough of them would hold every connection the server admits. `limit` is past the graceful path
/// (idle timeout plus its grace), so only such a client meets it.
final class HTTP2IdleReaper: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame
    typealias InboundOut = HTTP2Frame

    private let limit: TimeAmount
    private var openStreams = 0
    private var timer: Scheduled<Void>?

    init(limit: TimeAmount) { self.limit = limit }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { timer?.cancel() }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is NIOHTTP2StreamCreatedEvent:
            openStreams += 1
            timer?.cancel()
            timer = nil
        case is StreamClosedEvent:
            openStreams = max(0, openStreams - 1)
            if openStreams == 0 { arm(context) }
        default:
            break
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func arm(_ context: ChannelHandlerContext) {
        timer?.cancel()
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: limit) { bound.value.close(promise: nil) }
    }
}
