import NIOCore
import NIOHPACK
import NIOHTTP2

/// Answers an HTTP/2 request that waits for `100 Continue` before its body (RFC 9110 10.1.1: the server "MUST" send
/// it at once, or the final answer) with an informational HEADERS frame. Without it a client that honours the
/// expectation waited its own timeout on each request, or the body's deadline (an outside tester's find). The
/// HTTP/1.1 side is ``HTTP1RequestGuard``'s.
final class HTTP2ExpectContinue: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias InboundOut = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    /// A body announced over it gets its final answer, 413, without `100 Continue` first.
    let maxBodyBytes: Int

    init(maxBodyBytes: Int) { self.maxBodyBytes = maxBodyBytes }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .headers(let headers) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        // Before the request goes on: nothing may answer it ahead of the informational answer.
        if !headers.endStream,
            headers.headers[canonicalForm: "expect"].contains(where: { $0.lowercased() == "100-continue" }),
            !headers.headers["content-length"].contains(where: { (Int($0) ?? 0) > maxBodyBytes })
        {
            let informational = HTTP2Frame.FramePayload.Headers(headers: HPACKHeaders([(":status", "100")]))
            context.writeAndFlush(wrapOutboundOut(.headers(informational)), promise: nil)
        }
        context.fireChannelRead(data)
        // Only a request's first HEADERS matter; trailers come after its body.
        _ = context.pipeline.syncOperations.removeHandler(context: context)
    }
}
