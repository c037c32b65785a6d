import NIOCore
import NIOHTTP2

/// What Hummingbird's HTTP/2 channel leaves out, for one connection: it announces the stream limit (that channel
/// takes no settings and announces 100), and closes the connection after `limit` without an open stream, or
/// `quiesceLimit` into a shutdown, whatever its client answers. Hummingbird's manager closes gracefully (GOAWAY and
/// a PING, then a grace period that starts only when the PING is acknowledged): a client that never acknowledged
/// it kept its connection, and held the shutdown, for as long as it liked. `limit` is past the graceful path (idle
/// timeout plus its grace), so only such a client meets it.
final class HTTP2ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame
    typealias InboundOut = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    private let limit: TimeAmount
    private let quiesceLimit: TimeAmount
    private let maxStreams: Int
    private var openStreams = 0
    private var quiescing = false
    private var timer: Scheduled<Void>?

    init(limit: TimeAmount, quiesceLimit: TimeAmount, maxStreams: Int) {
        self.limit = limit
        self.quiesceLimit = quiesceLimit
        self.maxStreams = maxStreams
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    private func start(_ context: ChannelHandlerContext) {
        arm(context)
        // Applied once the client acknowledges it; a client that opened more streams before keeps them.
        let settings = [HTTP2Setting(parameter: .maxConcurrentStreams, value: maxStreams)]
        context.writeAndFlush(
            wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .settings(.settings(settings))))
        )
        .whenFailure { _ in }
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
            if !quiescing {
                timer?.cancel()
                timer = nil
            }
        case is StreamClosedEvent:
            openStreams = max(0, openStreams - 1)
            if openStreams == 0, !quiescing { arm(context) }
        case is ChannelShouldQuiesceEvent:
            // Shutting down: the graceful close (GOAWAY, PING, grace) has `quiesceLimit` to end the connection,
            // streams or not; a client that never acknowledges its PING held the shutdown for as long as it liked.
            quiescing = true
            arm(context, in: quiesceLimit)
        default:
            break
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func arm(_ context: ChannelHandlerContext, in delay: TimeAmount? = nil) {
        timer?.cancel()
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: delay ?? limit) { bound.value.close(promise: nil) }
    }
}
