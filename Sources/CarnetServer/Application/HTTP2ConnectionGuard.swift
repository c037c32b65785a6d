import NIOCore
import NIOHTTP2

/// What Hummingbird's HTTP/2 channel leaves out, for one connection: it announces Carnet's settings, the stream
/// limit and the header list size (that channel takes no settings and announces NIO's, 100 streams and 16 KiB; NIO
/// applies a setting of ours once the client acknowledges it), and closes the connection once its client has sent nothing for `limit`, or
/// `quiesceLimit` into a shutdown, whatever the client answers. Hummingbird's manager closes gracefully (GOAWAY and
/// a PING, then a grace period that starts only when the PING is acknowledged): a client that never acknowledged
/// it kept its connection, and held the shutdown, for as long as it liked. `limit` is past the graceful path (idle
/// timeout plus its grace), so only such a client meets it.
///
/// It sits between TLS and the HTTP/2 handler and watches bytes: the inline stream multiplexer tells stream events
/// to Hummingbird's manager alone. A client with a request in flight sends window updates as it reads, and a new
/// request is bytes too. Each stream's ``HTTP2StreamTracker`` tells it the streams open, so that a shutdown ends a
/// connection with none at once (after ``quietClose``) with a last GOAWAY naming the last stream served: one whose
/// client did not answer the PING (most idle pools read nothing) held every shutdown for the whole grace period.
final class HTTP2ConnectionGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let limit: TimeAmount
    private let quiesceLimit: TimeAmount
    private let shutdown: ShutdownClock
    private let settings: HTTP2Settings
    private var lastRead = NIODeadline.now()
    private var closeAt: NIODeadline?
    private var timer: Scheduled<Void>?
    /// Requests whose streams are open, and the highest stream identifier a request came on.
    private var openStreams = 0
    private var lastStream = HTTP2StreamID(0)
    /// Past the shutdown's GOAWAY and PING: a client that answers has had time to, and Hummingbird's manager has
    /// closed its connection.
    private var quiet = false
    private var quietTimer: Scheduled<Void>?

    /// How long a connection without requests waits, into a shutdown, for its client to acknowledge the PING
    /// before it is closed without: a round trip to a client that reads.
    static let quietClose = TimeAmount.seconds(1)

    init(limit: TimeAmount, quiesceLimit: TimeAmount, shutdown: ShutdownClock, settings: HTTP2Settings) {
        self.limit = limit
        self.quiesceLimit = quiesceLimit
        self.shutdown = shutdown
        self.settings = settings
    }

    func handlerAdded(context: ChannelHandlerContext) {
        lastRead = .now()
        schedule(context, at: lastRead + limit)
        // Written from the pipeline's tail, so the HTTP/2 handler (after this one) encodes it. Applied once the
        // client acknowledges it; a client that opened more streams before keeps them.
        context.channel.writeAndFlush(HTTP2Frame(streamID: .rootStream, payload: .settings(.settings(settings))))
            .whenFailure { _ in }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        quietTimer?.cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        quietTimer?.cancel()
        context.fireChannelInactive()
    }

    /// A request's stream opened. On the channel's event loop.
    func streamOpened(_ id: HTTP2StreamID) {
        openStreams += 1
        lastStream = max(lastStream, id)
    }

    /// A request's stream closed. On the channel's event loop.
    func streamClosed(_ context: ChannelHandlerContext) {
        openStreams -= 1
        closeIfQuiet(context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A deadline, not a timer per read: the timer checks it when it fires.
        lastRead = .now()
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            // Shutting down: the graceful close has until `quiesceLimit` into the shutdown, reads or not.
            let deadline = shutdown.deadline(after: quiesceLimit)
            closeAt = deadline
            schedule(context, at: deadline)
            if quietTimer == nil {
                let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                quietTimer = context.eventLoop.scheduleTask(in: Self.quietClose) {
                    let (handler, context) = bound.value
                    handler.quiet = true
                    handler.closeIfQuiet(context)
                }
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Into a shutdown, once no request is open: the last GOAWAY, so the client knows a request it sent since was
    /// not served and may send it again, then the close.
    private func closeIfQuiet(_ context: ChannelHandlerContext) {
        guard quiet, openStreams == 0, context.channel.isActive else { return }
        let goAway = HTTP2Frame(
            streamID: .rootStream, payload: .goAway(lastStreamID: lastStream, errorCode: .noError, opaqueData: nil))
        // From the pipeline's tail, so the HTTP/2 handler encodes it (and refuses later streams).
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.channel.writeAndFlush(goAway).whenComplete { _ in bound.value.close(promise: nil) }
    }

    private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        timer?.cancel()
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: deadline) { [weak self] in
            self?.fire(bound.value)
        }
    }

    private func fire(_ context: ChannelHandlerContext) {
        // Whichever comes first: the client's silence for `limit`, or the shutdown's limit.
        let deadline = min(lastRead + limit, closeAt ?? .distantFuture)
        guard NIODeadline.now() >= deadline else { return schedule(context, at: deadline) }
        context.close(promise: nil)
    }
}
