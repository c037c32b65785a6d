import NIOCore
import NIOHTTP2

/// Keeps an HTTP/2 connection open through an error that concerns one stream: an invalid request header block
/// (an uppercase or forbidden header field, a misplaced pseudo-header), a body that disagrees with its
/// `content-length`, trailers without END_STREAM. The HTTP/2 handler has already reset that stream
/// (RST_STREAM, RFC 9113 5.4.2); Hummingbird's connection manager, after this handler, closes the connection on any
/// error it sees, so one malformed request ended every other request of the client on that connection.
///
/// The HTTP/2 handler reports a stream's error as it reports the connection's (the bare underlying error, after
/// RST_STREAM or GOAWAY), so the kinds that only a stream's state machine raises are listed here. Anything else,
/// among it errors both can raise (a bad state transition, a flow-control violation), still closes the connection:
/// the HTTP/2 handler sent GOAWAY for those that were the connection's.
final class HTTP2StreamErrorFilter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = Any

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard !Self.concernsOneStream(error) else { return }
        context.fireErrorCaught(error)
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
