import NIOCore

/// Closes a channel that has stayed unwritable for `limit`: its peer reads nothing, so what the server wrote waits
/// above the channel's high watermark. A WebSocket client that stopped reading with large answers pending was never
/// closed (its ping waited behind them, so the ping timeout never came), and its held answers kept the response
/// budget full, so other clients' large queries got SERVER_BUSY for as long as it stayed (an outside tester's find).
/// On a connection it sits in front of TLS and stays through the WebSocket upgrade, so its close does not wait for
/// a TLS close the peer will not read; on an HTTP/2 stream, whose writability follows the flow-control window, it
/// resets the stream. A slow reader that still takes data makes the channel writable again in time.
final class WriteStallTimeout: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let limit: TimeAmount
    private var timer: Scheduled<Void>?

    init(limit: TimeAmount) {
        self.limit = limit
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if !context.channel.isWritable { arm(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) { disarm() }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            disarm()
        } else if timer == nil {
            arm(context)
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    private func arm(_ context: ChannelHandlerContext) {
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: limit) { bound.value.close(promise: nil) }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }
}
