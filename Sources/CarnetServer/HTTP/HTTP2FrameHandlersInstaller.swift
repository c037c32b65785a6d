import NIOCore
import NIOHTTPTypes

/// Added by Hummingbird after an HTTP/2 stream's codec (where a stream's own handlers go), it puts the handlers that
/// work on the stream's frames, ``HTTP2EarlyResponseReset`` and ``HTTP2ExpectContinue``, before the codec, at the
/// stream's head, and otherwise passes everything on.
final class HTTP2FrameHandlersInstaller: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    /// ``ServerConfiguration/maxBodyBytes``: a larger body announced gets no `100 Continue`.
    let maxBodyBytes: Int

    init(maxBodyBytes: Int) { self.maxBodyBytes = maxBodyBytes }

    func handlerAdded(context: ChannelHandlerContext) {
        try? context.pipeline.syncOperations.addHandler(HTTP2EarlyResponseReset(), position: .first)
        try? context.pipeline.syncOperations.addHandler(
            HTTP2ExpectContinue(maxBodyBytes: maxBodyBytes), position: .first)
    }
}
