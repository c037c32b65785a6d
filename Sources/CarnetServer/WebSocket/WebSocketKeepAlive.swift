import NIOCore
import NIOWebSocket

/// Pings a WebSocket client every ``interval`` and closes the socket with 1001 "Ping timeout" once the client has
/// sent nothing (no frame of any kind, pongs included) for ``timeout``.
///
/// It replaces Hummingbird's ping, which closed a socket whose pong had not come back by the next ping, 30 s: a
/// slow but steady reader's pong waits until it has read what was sent before the ping, and a kernel send buffer
/// holds megabytes, so a client syncing over a slow link was cut off mid-page (an outside tester's find: 8 KiB/s
/// with 2 MB ahead of the ping). The timeout is the write-stall limit's (``ServerConfiguration/writeStallTimeout``),
/// which closes a socket whose client reads nothing sooner when answers wait; the pings keep idle sockets' NAT
/// mappings alive and give a live client something to answer. While answers wait in the server, a ping waits behind
/// them, and the connection is the write-stall limit's to judge: it counts their progress. The timeout starts once
/// nothing waits there, and a WebSocket's kernel send buffer is bounded (``socketSendBuffer``), so what stands
/// before the ping then drains within it for any reader faster than about 2 KiB/s.
final class WebSocketKeepAlive: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// The kernel send buffer a WebSocket asks for (Linux doubles it for its bookkeeping): about a minute of
    /// reading at 8 KiB/s, and 10 MB/s over a 50 ms round trip.
    static let socketSendBuffer: SocketOptionValue = 256 * 1_024

    let interval: TimeAmount
    let timeout: TimeAmount
    private var lastHeard = NIODeadline.uptimeNanoseconds(0)
    private var pings: RepeatedTask?
    /// The connection's write-stall limit, when it has one.
    private var writeStall: WriteStallTimeout?

    init(interval: TimeAmount, timeout: TimeAmount) {
        self.interval = interval
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        lastHeard = context.eventLoop.now
        writeStall = try? context.pipeline.syncOperations.handler(type: WriteStallTimeout.self)
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        pings = context.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
            let (handler, context) = bound.value
            handler.tick(context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) { stop() }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastHeard = context.eventLoop.now
        // The answers to these pings (and a client's unsolicited heartbeats) end here.
        guard unwrapInboundIn(data).opcode != .pong else { return }
        context.fireChannelRead(data)
    }

    private func tick(_ context: ChannelHandlerContext) {
        guard context.channel.isActive else { return stop() }
        if writeStall?.hasOutstandingWrites == true { lastHeard = context.eventLoop.now }
        guard context.eventLoop.now - lastHeard < timeout else {
            stop()
            var payload = context.channel.allocator.buffer(capacity: 16)
            payload.write(webSocketErrorCode: .goingAway)
            payload.writeString("Ping timeout")
            // Closed at once: a lost peer would never take the close frame.
            context.writeAndFlush(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)), promise: nil)
            context.close(promise: nil)
            return
        }
        let ping = WebSocketFrame(fin: true, opcode: .ping, data: context.channel.allocator.buffer(capacity: 0))
        context.writeAndFlush(wrapOutboundOut(ping), promise: nil)
    }

    private func stop() {
        pings?.cancel()
        pings = nil
    }
}
