import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Gives each request `timeout` from its head to its end, then fails the connection's (or HTTP/2 stream's) inbound
/// stream with ``RequestBodyTimeout``, which a handler reading the body answers with 408.
///
/// This lives in the channel pipeline rather than in the handler's task: racing every body read against a timer
/// in Swift concurrency took a child task per request, and with it two hops between threads. Here a request whose
/// head and end arrive in the same read (almost all of them) schedules nothing, and the rest schedule one task
/// on their own event loop.
final class RequestBodyDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let timeout: TimeAmount
    /// Whether a request's head has arrived and its end not yet.
    private var awaitingEnd = false
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            awaitingEnd = true
        case .end:
            awaitingEnd = false
            deadline?.cancel()
            deadline = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if awaitingEnd, deadline == nil {
            // Both are only touched on this event loop; the task is cancelled when the handler goes.
            let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
            deadline = context.eventLoop.scheduleTask(in: timeout) {
                let (handler, context) = bound.value
                guard handler.awaitingEnd else { return }
                handler.deadline = nil
                context.fireErrorCaught(RequestBodyTimeout())
            }
        }
        context.fireChannelReadComplete()
    }

    /// Also called when the connection or stream closes: NIO removes every handler then.
    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }
}

/// A request's body did not arrive within the server's body timeout: 408 with the usual JSON refusal, from
/// whichever route was reading the body (Hummingbird renders it, and the request log records it as a 408).
struct RequestBodyTimeout: HTTPResponseError {
    var status: HTTPResponse.Status { .requestTimeout }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        HTTPErrorResponse(status: status, code: .requestTimeout, message: "The request body took too long to arrive.")
            .response()
    }
}
