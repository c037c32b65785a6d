import NIOCore
import NIOHTTP1

/// Watches an HTTP/1.1 connection until its first request head: then cancels the connection's deadline (the
/// TLS handshake and that head must arrive within it), refuses a WebSocket handshake that cannot succeed, drops
/// the head's `Upgrade` unless it is a GET, and leaves the pipeline, where Hummingbird's idle and body timeouts
/// take over. A head the decoder refuses (a request line
/// or headers over its limits, malformed bytes) gets a response and the connection closes: with the WebSocket
/// upgrade in the pipeline nothing else answers it, and the client waited for nothing on an open connection.
final class FirstRequestGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let deadline: Scheduled<Void>
    private var answered = false

    init(deadline: Scheduled<Void>) { self.deadline = deadline }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // After a refusal the rest of the request (its body, its end) has nowhere to go: the connection closes.
        guard !answered else { return }
        guard case .head(var head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        deadline.cancel()
        if let refusal = WebSocketHandshake.refusal(for: head) {
            return refuse(context: context, refusal)
        }
        // Only a connection's first request may upgrade it, and only a GET to a WebSocket (RFC 6455); RFC 9110
        // lets a server ignore any other Upgrade. Left in, a POST with a body and upgrade headers was upgraded
        // (101, then an error logged for its body), or, declined, never answered. Without it, it is served as
        // the request it is. (Here, not in a handler of its own: after an upgrade, WebSocket frames pass where
        // the request parts did, and this handler is gone by then.)
        // The same for any Upgrade but a WebSocket's (h2c, anything): nothing here speaks it, and NIO's upgrader closed
        // such a connection without an answer, logging an error.
        if head.headers.contains(name: "upgrade"),
            head.method != .GET || !WebSocketHandshake.asksForWebSocket(head.headers)
        {
            head.headers.remove(name: "upgrade")
            head.headers.remove(name: "http2-settings")
            // The upgrade's own tokens go with it: a Connection of `close` alone is the one that closes (the
            // keep-alive check downstream does not find `close` among other tokens).
            let connection = head.headers[canonicalForm: "connection"].filter {
                !["upgrade", "http2-settings"].contains($0.lowercased())
            }
            head.headers.remove(name: "connection")
            if !connection.isEmpty { head.headers.add(name: "connection", value: connection.joined(separator: ", ")) }
            context.fireChannelRead(wrapInboundOut(.head(head)))
        } else {
            context.fireChannelRead(data)
        }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let refused = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        deadline.cancel()
        // The decoder counts the request line with the headers: an overlong query string is a header overflow too.
        // A malformed URL is a bad request, not a long one.
        refuse(
            context: context,
            refused == .headerOverflow
                ? HTTPErrorResponse(
                    status: .requestHeaderFieldsTooLarge, code: .requestHeaderFieldsTooLarge,
                    message: "The request line and headers are too large.")
                : HTTPErrorResponse(status: .badRequest, code: .badRequest, message: "The request head is malformed."))
    }

    /// Answers with `refusal` and closes the connection, once.
    private func refuse(context: ChannelHandlerContext, _ refusal: HTTPErrorResponse) {
        guard !answered else { return }
        answered = true
        let body = context.channel.allocator.buffer(bytes: refusal.body)
        var headers: HTTPHeaders = [
            "connection": "close", "content-type": ResponseMediaType.json.contentType,
            "content-length": String(body.readableBytes),
        ]
        for field in refusal.headers { headers.add(name: field.name.rawName, value: field.value) }
        let head = HTTPResponseHead(
            version: .http1_1, status: HTTPResponseStatus(statusCode: refusal.status.code), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }
}
