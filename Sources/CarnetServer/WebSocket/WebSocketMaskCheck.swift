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
        let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: code)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(close)).whenComplete { _ in bound.value.close(promise: nil) }
    }

    /// Waits, at the end of an HTTP/1.1 connection's pipeline, for an upgrade to WebSocket, and then puts the check
    /// after the frame decoder the upgrade added. NIO tells of the upgrade once the WebSocket handlers are in and
    /// before it passes on the bytes that came with the handshake, so no frame gets past unchecked.
    final class Installer: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if case .upgradeComplete? = event as? HTTPServerUpgradeEvents {
                let operations = context.pipeline.syncOperations
                do {
                    let decoder = try operations.handler(type: ByteToMessageHandler<WebSocketFrameDecoder>.self)
                    try operations.addHandler(WebSocketMaskCheck(), position: .after(decoder))
                } catch {
                    // No frame decoder: not a WebSocket, nothing to check.
                }
                operations.removeHandler(context: context, promise: nil)
            }
            context.fireUserInboundEventTriggered(event)
        }
    }
}
