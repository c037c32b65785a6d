import NIOCore
import NIOHTTPTypes

/// Added by Hummingbird after an HTTP/2 stream's codec (where a stream's own handlers go), it puts the handlers that
/// work on the stream's frames, ``HTTP2EarlyResponseReset`` and ``HTTP2ExpectContinue``, before the codec, at the
/// stream's head, and otherwise passes everything on.
final class HTTP2FrameHandlersInstaller: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    func handlerAdded(context: ChannelHandlerContext) {
        try? context.pipeline.syncOperations.addHandler(HTTP2EarlyResponseReset(), position: .first)
        try? context.pipeline.syncOperations.addHandler(HTTP2ExpectContinue(), position: .first)
    }
}
