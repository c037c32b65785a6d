import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Closes a WebSocket whose client sends a frame without a mask, with 1002 (protocol error), as RFC 6455 §5.1
/// says a server must: NIO's decoder unmasks what is masked and passes the rest, and an unmasked connection_init
/// and subscribe were served (an outside tester's find). It stands right after the frame decoder, so no unmasked
/// frame reaches the session; the decoder's own framing errors still close with 1002 through NIO's error handler.
final class WebSocketMaskCheck: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard unwrapInboundIn(data).maskKey == nil else { return context.fireChannelRead(data) }
        refused = true
        var code = context.channel.allocator.buffer(capacity: 2)
        code.write(webSocketErrorCode: .protocolError)
        // Closed at once, not once the frame is flushed: a client that stops reading would hold the connection,
        // and the session could still write. TLS's close waits at most its shutdown timeout for the client.
        let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: code)
        context.writeAndFlush(wrapOutboundOut(close), promise: nil)
        context.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // After the refusal nothing more is said: NIO's handler would send a second close frame for a framing error.
        if !refused { context.fireErrorCaught(error) }
    }

    /// Put at the end of the pipeline as a WebSocket upgrade is accepted; once NIO has added the WebSocket handlers
    /// (it tells of the upgrade before it passes on the bytes that came with the handshake), puts the check after
    /// the frame decoder, so no frame gets past unchecked, and the keep-alive after it, and leaves.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny

        private let keepAlive: @Sendable () -> WebSocketKeepAlive

        init(keepAlive: @escaping @Sendable () -> WebSocketKeepAlive) {
            self.keepAlive = keepAlive
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            guard case .upgradeComplete? = event as? HTTPServerUpgradeEvents else {
                return context.fireUserInboundEventTriggered(event)
            }
            let operations = context.pipeline.syncOperations
            // A ping must reach a slow reader within the keep-alive's timeout: what waits beyond this waits in the
            // server, where the write-stall limit sees it go (``WebSocketKeepAlive``).
            try? context.channel.syncOptions?.setOption(
                ChannelOptions.socketOption(.so_sndbuf), value: WebSocketKeepAlive.socketSendBuffer)
            if let decoder = try? operations.handler(type: ByteToMessageHandler<WebSocketFrameDecoder>.self) {
                do {
                    let check = WebSocketMaskCheck()
                    try operations.addHandler(check, position: .after(decoder))
                    try operations.addHandler(keepAlive(), position: .after(check))
                } catch {
                    // Unchecked frames are not served.
                    context.close(promise: nil)
                }
            }
            context.fireUserInboundEventTriggered(event)
            operations.removeHandler(context: context, promise: nil)
        }
    }
}
