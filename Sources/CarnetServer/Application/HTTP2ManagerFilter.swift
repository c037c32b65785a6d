import NIOCore
import NIOHTTP2

/// Sits between NIO's HTTP/2 handler and Hummingbird's HTTP/2 connection manager, and corrects two things the
/// manager does to the whole connection.
///
/// It closes the connection on any error it sees, a stream's too: an error that concerns one stream (an invalid
/// request header block, such as an uppercase or forbidden header field or a misplaced pseudo-header; a body
/// that disagrees with its `content-length`; trailers without END_STREAM) ended every other request of the
/// client on that connection. The HTTP/2 handler has already reset that stream (RST_STREAM, RFC 9113 5.4.2), so
/// such an error stops here. The HTTP/2 handler reports a stream's error as it reports the connection's (the bare
/// underlying error, after RST_STREAM or GOAWAY), so the kinds that only a stream's state machine raises are
/// listed. Anything else, among it errors both can raise (a bad state transition, a flow-control violation), still
/// closes the connection: the HTTP/2 handler sent GOAWAY for those that were the connection's.
///
/// And it closes right after writing a GOAWAY it has not flushed (a PING flood's ENHANCE_YOUR_CALM, the end of a
/// graceful close), so the client saw a bare close and never learnt why: a close passing here flushes first.
final class HTTP2ManagerFilter: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = Any
    typealias OutboundIn = Any

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !Self.concernsOneStream(error) else { return }
        // An error both state machines raise ended the connection without a word when it was a stream's: the
        // HTTP/2 handler had sent RST_STREAM only (a zero WINDOW_UPDATE increment on a stream; an outside tester's
        // find). A GOAWAY says why; RFC 9113 5.4.1 lets a stream error end the connection. After the handler's own
        // GOAWAY for a connection error, a second one with the same last stream changes nothing.
        if let code = Self.sharedErrorCode(error) {
            let goAway = HTTP2Frame(
                streamID: .rootStream, payload: .goAway(lastStreamID: .maxID, errorCode: code, opaqueData: nil))
            context.writeAndFlush(NIOAny(goAway), promise: nil)
        }
        context.fireErrorCaught(error)
    }

    /// The GOAWAY code for an error that a stream's state machine raises as well as the connection's, or `nil`.
    static func sharedErrorCode(_ error: any Error) -> HTTP2ErrorCode? {
        switch error {
        case is NIOHTTP2Errors.InvalidWindowIncrementSize, is NIOHTTP2Errors.BadStreamStateTransition:
            return .protocolError
        case is NIOHTTP2Errors.FlowControlViolation, is NIOHTTP2Errors.InvalidFlowControlWindowSize:
            return .flowControlError
        default:
            return nil
        }
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        context.flush()
        context.close(mode: mode, promise: promise)
    }

    static func concernsOneStream(_ error: any Error) -> Bool {
        switch error {
        case is NIOHTTP2Errors.StreamError,
            // A request's header block (RFC 9113 8.2, 8.3).
            is NIOHTTP2Errors.InvalidHTTP2HeaderFieldName, is NIOHTTP2Errors.InvalidHTTP2HeaderFieldValue,
            is NIOHTTP2Errors.ForbiddenHeaderField, is NIOHTTP2Errors.PseudoHeaderAfterRegularHeader,
            is NIOHTTP2Errors.UnknownPseudoHeader, is NIOHTTP2Errors.UnsupportedPseudoHeader,
            is NIOHTTP2Errors.DuplicatePseudoHeader, is NIOHTTP2Errors.InvalidPseudoHeaders,
            is NIOHTTP2Errors.InvalidPseudoHeaderValue, is NIOHTTP2Errors.EmptyPathHeader,
            is NIOHTTP2Errors.TrailersWithoutEndStream,
            // A body against its content-length (RFC 9113 8.1.1).
            is NIOHTTP2Errors.ContentLengthViolated, is NIOHTTP2Errors.ContentLengthHeadersMismatch,
            is NIOHTTP2Errors.ContentLengthHeaderNegative, is NIOHTTP2Errors.ContentLengthHeaderMalformedValue:
            return true
        default:
            return false
        }
    }
}
