import NIOCore
import NIOHTTPTypes

/// Closes an HTTP/1.1 connection (or resets an HTTP/2 stream) that has been idle for ``idle``: no answer being
/// worked on or going out, no request arriving. One whose answer waits to go out is closed only when that answer
/// has made no progress for ``stall``.
///
/// It replaces Hummingbird's idle timeout, which counted from when an answer's end was handed to the channel: an
/// answer its client was still reading slowly (megabytes in the channel's buffer) was cut off ``idle`` later, and
/// the request was logged as served (an outside tester's find: 8 KiB/s over HTTP/2 reset after 60 s, HTTP/1.1 at
/// 48 KiB/s cut mid-body). Large body parts go out in slices (``WriteProgress``), so progress shows as the client
/// reads; an HTTP/2 stream held back by a window its client never opens is reset after ``stall``, and its answer
/// leaves the response budget.
final class HTTPIdleTimeout: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let idle: TimeAmount
    let stall: TimeAmount
    /// Requests whose head has arrived and whose answer's end has not gone out.
    private var answering = 0
    private var readingRequest = false
    private var progress = WriteProgress()
    /// When the connection began, or a request part last arrived.
    private var lastRead = NIODeadline.uptimeNanoseconds(0)
    private var check: Scheduled<Void>?

    init(idle: TimeAmount, stall: TimeAmount) {
        self.idle = idle
        self.stall = stall
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { disarm() }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastRead = context.eventLoop.now
        switch unwrapInboundIn(data) {
        case .head:
            answering += 1
            readingRequest = true
        case .end: readingRequest = false
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .body(let buffer) where buffer.readableBytes > WriteProgress.slice:
            WriteProgress.forEachSlice(of: buffer) { part, isLast in
                pass(context, wrapOutboundOut(.body(part)), isLast ? promise : nil, endsAnswer: false)
            }
        case .end:
            pass(context, data, promise, endsAnswer: true)
        default:
            pass(context, data, promise, endsAnswer: false)
        }
    }

    private func pass(
        _ context: ChannelHandlerContext, _ data: NIOAny, _ promise: EventLoopPromise<Void>?, endsAnswer: Bool
    ) {
        let tracked = promise ?? context.eventLoop.makePromise()
        progress.began(at: context.eventLoop.now)
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        tracked.futureResult.whenComplete { _ in
            let (handler, context) = bound.value
            handler.progress.ended(at: context.eventLoop.now)
            if endsAnswer { handler.answering = max(0, handler.answering - 1) }
            // The stall limit's check may be minutes away: the idle time counts from now.
            if !handler.progress.isWaiting, context.channel.isActive {
                handler.disarm()
                handler.schedule(context, at: handler.lastActivity + handler.idle)
            }
        }
        context.write(data, promise: tracked)
    }

    /// The last request part read, or write done, or when the writes now outstanding began.
    private var lastActivity: NIODeadline { max(lastRead, progress.last) }

    private func start(_ context: ChannelHandlerContext) {
        lastRead = context.eventLoop.now
        if check == nil { schedule(context, at: lastActivity + idle) }
    }

    /// At `deadline`: closes the channel if it has been idle, or its writes stalled, for as long as allowed; else
    /// looks again when that could next be so.
    private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        check = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = bound.value
            handler.check = nil
            guard context.channel.isActive else { return }
            let now = context.eventLoop.now
            let limit: TimeAmount
            if handler.progress.isWaiting {
                limit = handler.stall
            } else if handler.answering > 0, !handler.readingRequest {
                // A request being worked on: its own limits bound it.
                return handler.schedule(context, at: now + handler.idle)
            } else {
                limit = handler.idle
            }
            if now - handler.lastActivity >= limit {
                context.close(promise: nil)
            } else {
                handler.schedule(context, at: handler.lastActivity + limit)
            }
        }
    }

    private func disarm() {
        check?.cancel()
        check = nil
    }
}
