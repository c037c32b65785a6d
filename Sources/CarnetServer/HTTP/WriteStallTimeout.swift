import NIOCore

/// Closes a connection whose writes have made no progress for `limit`: bytes wait to go out and not one slice of
/// ``WriteProgress/slice`` bytes has been written in that time, so its client reads nothing. A WebSocket client that stopped
/// reading with large answers pending was never closed (its ping waited behind them, so the ping timeout never
/// came), and its held answers kept the response budget full, so other clients' large queries got SERVER_BUSY for
/// as long as it stayed (an outside tester's find).
///
/// Progress is counted as ``WriteProgress`` counts it, in slices of a large write. The channel's writability said
/// nothing of that: one large answer kept it unwritable for as long as the client took to read most of it (another
/// tester's find: steady readers at 16 KiB/s were closed after 30 s). The kernel still tells of progress only once
/// a third of a full send buffer has gone (up to 4 MiB with autotuning), which a client reading 8 KiB/s takes
/// minutes to read: hence the limit's length (``ServerConfiguration/writeStallTimeout``). It sits in front of TLS
/// and stays through the WebSocket upgrade, so its close does not wait for a TLS close the peer will not read.
/// HTTP/2 streams held back by flow control are not its business: their client reads the connection.
final class WriteStallTimeout: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private let limit: TimeAmount
    private var progress = WriteProgress()
    private var check: Scheduled<Void>?
    /// Bytes passed on since the connection opened, and of those the bytes written (writes complete in order).
    private var passedBytes = 0
    private var writtenBytes = 0
    /// Who waits for bytes to be written (``whenWritten(allBut:eventLoop:)``): each until `writtenBytes` reaches its
    /// target.
    private var waiters: [(target: Int, promise: EventLoopPromise<Void>)] = []
    private var isClosed = false

    init(limit: TimeAmount) {
        self.limit = limit
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
        releaseWaiters()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        releaseWaiters()
        context.fireChannelInactive()
    }

    /// Succeeds once every byte passed on so far but the last `allowed` is written (at once when that is so, or
    /// once the connection closed). What the server holds of an answer is counted until its bytes leave the
    /// process: the writers above do not wait for the socket (an outside tester's unread answers, 601 MiB of them,
    /// were each given back to the budget as soon as they were written into the pipeline).
    func whenWritten(allBut allowed: Int, eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        let target = passedBytes - allowed
        guard !isClosed, writtenBytes < target else { return eventLoop.makeSucceededVoidFuture() }
        let promise = eventLoop.makePromise(of: Void.self)
        waiters.append((target, promise))
        return promise.futureResult
    }

    private func releaseWaiters() {
        isClosed = true
        let released = waiters
        waiters = []
        for waiter in released { waiter.promise.succeed() }
    }

    private func written(_ bytes: Int) {
        writtenBytes += bytes
        guard !waiters.isEmpty else { return }
        var kept: [(target: Int, promise: EventLoopPromise<Void>)] = []
        for waiter in waiters {
            if waiter.target <= writtenBytes { waiter.promise.succeed() } else { kept.append(waiter) }
        }
        waiters = kept
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .byteBuffer(let buffer) = unwrapOutboundIn(data), buffer.readableBytes > WriteProgress.slice else {
            pass(context, data, promise)
            return
        }
        WriteProgress.forEachSlice(of: buffer) { part, isLast in
            pass(context, wrapOutboundOut(.byteBuffer(part)), isLast ? promise : nil)
        }
    }

    /// Whether bytes wait to go out: while they do, this handler judges the connection, not a ping's answer.
    var hasOutstandingWrites: Bool { progress.isWaiting }

    private func pass(_ context: ChannelHandlerContext, _ data: NIOAny, _ promise: EventLoopPromise<Void>?) {
        let tracked = promise ?? context.eventLoop.makePromise()
        progress.began(at: context.eventLoop.now)
        if check == nil { schedule(context, at: progress.last + limit) }
        let bytes = unwrapOutboundIn(data).readableBytes
        passedBytes += bytes
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loop = context.eventLoop
        tracked.futureResult.whenComplete { _ in
            bound.value.progress.ended(at: loop.now)
            bound.value.written(bytes)
        }
        context.write(data, promise: tracked)
    }

    /// Closes the channel at `deadline` if nothing was written since `limit` before it; else looks again `limit`
    /// after the last progress. Nothing to look at once no write waits.
    private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        check = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = bound.value
            handler.check = nil
            guard handler.progress.isWaiting else { return }
            if context.eventLoop.now - handler.progress.last >= handler.limit {
                context.close(promise: nil)
            } else {
                handler.schedule(context, at: handler.progress.last + handler.limit)
            }
        }
    }

    private func disarm() {
        check?.cancel()
        check = nil
    }
}
