import NIOCore
import NIOHTTP1

/// Watches an HTTP/1.1 connection until its first request head: then cancels the connection's deadline (the
/// TLS handshake and that head must arrive within it) and leaves the pipeline, where Hummingbird's idle and
/// body timeouts take over. A head the decoder refuses (a request line or headers over its limits, malformed
/// bytes) gets a response and the connection closes: with the WebSocket upgrade in the pipeline nothing else
/// answers it, and the client waited for nothing on an open connection.
final class FirstRequestGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let deadline: Scheduled<Void>
    private var answered = false

    init(deadline: Scheduled<Void>) { self.deadline = deadline }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        deadline.cancel()
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let refused = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        deadline.cancel()
        guard !answered else { return }
        answered = true
        // The decoder counts the request line with the headers: an overlong query string is a header overflow too.
        // A malformed URL is a bad request, not a long one.
        let refusal =
            refused == .headerOverflow
            ? HTTPErrorResponse(
                status: .requestHeaderFieldsTooLarge, code: .requestHeaderFieldsTooLarge,
                message: "The request line and headers are too large.")
            : HTTPErrorResponse(status: .badRequest, code: .badRequest, message: "The request head is malformed.")
        let body = context.channel.allocator.buffer(bytes: refusal.body)
        let headers: HTTPHeaders = [
            "connection": "close", "content-type": ResponseMediaType.json.contentType,
            "content-length": String(body.readableBytes),
        ]
        let head = HTTPResponseHead(
            version: .http1_1, status: HTTPResponseStatus(statusCode: refusal.status.code), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }
}
