import NIOCore
import NIOHTTP2
import NIOHTTPTypes

/// Asks an HTTP/2 client to stop sending a request whose answer is already complete: a 413 for a body announced
/// over the limit, a 401 before the body was read. RFC 9113 8.1 lets the server send RST_STREAM with NO_ERROR after
/// the complete response; without it the client sent the whole body (the server went on granting flow-control
/// window for bytes it dropped), megabytes for nothing, while HTTP/1.1 closes the connection after such an answer.
///
/// It works on frames, so it sits before the stream's HTTP codec (``HTTP2FrameHandlersInstaller`` puts it there).
final class HTTP2EarlyResponseReset: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias InboundOut = HTTP2Frame.FramePayload
    typealias OutboundIn = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    private var requestEnded = false
    private var reset = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .headers(let headers) where headers.endStream: requestEnded = true
        case .data(let body) where body.endStream: requestEnded = true
        default: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let endsResponse: Bool
        switch unwrapOutboundIn(data) {
        case .headers(let headers): endsResponse = headers.endStream
        case .data(let body): endsResponse = body.endStream
        default: endsResponse = false
        }
        guard endsResponse, !requestEnded, !reset else { return context.write(data, promise: promise) }
        reset = true
        // Once the response's end is out: NIOHTTP2 drops a stream's DATA still waiting for flow-control window when
        // the stream is reset, so a reset written with it cut the response short.
        let written = promise ?? context.eventLoop.makePromise()
        context.write(data, promise: written)
        written.futureResult.assumeIsolated().whenSuccess {
            context.writeAndFlush(self.wrapOutboundOut(.rstStream(.noError)), promise: nil)
        }
    }
}
