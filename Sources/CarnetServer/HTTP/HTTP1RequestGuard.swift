import NIOCore
import NIOHTTP1

/// Watches the request heads of an HTTP/1.x connection, between NIO's decoder and Hummingbird.
///
/// - The first head cancels the connection's deadline (the TLS handshake and that head must arrive within it;
///   Hummingbird's idle and body timeouts take over from there). A WebSocket handshake that cannot succeed is
///   refused; an `Upgrade` is dropped unless the head asks for a WebSocket by GET (``HTTP1HeadRules``). A head that
///   does ask leaves the connection to the upgrader, and this handler leaves the pipeline: after an upgrade,
///   WebSocket frames would pass where request parts did, and a declined upgrade is answered and closed.
/// - Every head: an HTTP/1.1 request without exactly one Host is refused (400), and a request that asks the
///   connection to close (a `close` token in any case or place, HTTP/1.0 without `keep-alive`) closes it after its
///   answer, which says `Connection: close`; requests pipelined after it are not read.
/// - A head the decoder refuses (a request line or headers over its limits, malformed bytes) is refused too, first
///   or pipelined behind a request still being served: with the WebSocket upgrade in the pipeline nothing else
///   answered a first request's, and Hummingbird answered a later one with an empty 400. A body it refuses is the
///   request handler's to answer.
///
/// A refusal is answered in turn, after the answers to the requests before it (HTTP/1.1 answers in order), and
/// closes the connection; nothing the client sent after it is read.
final class HTTP1RequestGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let deadline: Scheduled<Void>
    private var firstHead = true
    /// A head went on to the WebSocket upgrade handler after this one.
    private var passedHead = false
    /// Requests passed on whose answer has not ended.
    private var unanswered = 0
    /// For each of them, in order, whether it waits for `100 Continue` not yet sent: sent once the answers before
    /// it have ended (HTTP/1.1 answers in order), at once for the one being served.
    /// A ring: each answer takes the first off (an array's removeFirst moved every pipelined request's entry).
    private var awaitingContinue = CircularBuffer<Bool>()
    /// The request passed on last has not ended: a decoder error is its body's.
    private var readingBody = false
    /// A request asked to close: nothing after it is read.
    private var closing = false
    /// A request came after the one that closes: it and all after it are dropped.
    private var discarding = false
    private var refusal: HTTPErrorResponse?
    private var refused = false

    /// The largest body served: a request announcing more gets its 413 without `100 Continue` first.
    private let maxBodyBytes: Int

    init(deadline: Scheduled<Void>, maxBodyBytes: Int) {
        self.deadline = deadline
        self.maxBodyBytes = maxBodyBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard refusal == nil, !discarding else { return }
        let part = unwrapInboundIn(data)
        guard case .head(var head) = part else {
            if case .end = part { readingBody = false }
            return context.fireChannelRead(data)
        }
        guard !closing else {
            discarding = true
            return
        }
        if firstHead {
            firstHead = false
            deadline.cancel()
            if let refusal = WebSocketHandshake.refusal(for: head) ?? HTTP1HeadRules.refusal(for: head) {
                return refuse(context: context, refusal)
            }
            passedHead = true
            // A WebSocket elsewhere than the endpoint is served as the plain request it also is (a 404 with its
            // JSON body for an unknown path): refused by the upgrader, it got a bare 400 (an outside tester's find).
            if WebSocketHandshake.isWebSocketRequest(head), GraphQLWebSocketEndpoint.servesWebSocket(path: head.uri) {
                context.fireChannelRead(data)
                return context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            }
            if head.headers.contains(name: "upgrade") { head = HTTP1HeadRules.withoutUpgrade(head) }
        } else if let refusal = HTTP1HeadRules.refusal(for: head) {
            return refuse(context: context, refusal)
        }
        closing = HTTP1HeadRules.closes(head)
        // As Hummingbird's keep-alive check reads it: a closing request's Connection is exactly `close`.
        if closing { head.headers.replaceOrAdd(name: "connection", value: "close") }
        unanswered += 1
        readingBody = true
        awaitingContinue.append(HTTP1HeadRules.expectsContinue(head, maxBodyBytes: maxBodyBytes))
        if unanswered == 1 { sendContinueIfAwaited(context: context, flush: true) }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func channelInactive(context: ChannelHandlerContext) {
        // A connection that ends before a head reached the upgrade handler (a reset, a refused or cut first head,
        // the first request's deadline) fails that handler's result with an error Hummingbird logs at `.error`;
        // told that the input closed, it fails with `inputClosed`, which Hummingbird logs at `.trace`. Such an end
        // is the client's, not a failure of the server's.
        if !passedHead { context.fireUserInboundEventTriggered(ChannelEvent.inputClosed) }
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // A shutdown before the first head: until it comes, the upgrade handler stands where Hummingbird's
        // connection handler would close an idle connection, and nothing did, so a connection opened ahead of its
        // first request (a browser's preconnect, a pool's warm connection) held the shutdown until its deadline.
        if event is ChannelShouldQuiesceEvent, firstHead {
            deadline.cancel()
            context.close(promise: nil)
            return
        }
        // The client closed its side with a request unanswered: it left (no HTTP client waits for an answer that
        // way), so the connection closes and the request, which checks that its channel is active, stops at its
        // next check (499). Hummingbird allows half-closed connections, and an import whose client had left ran
        // to its end (an outside tester's find).
        if let event = event as? ChannelEvent, event == .inputClosed, unanswered > 0 {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head) where closing && unanswered == 1 && head.status.code >= 200:
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end:
            context.write(data, promise: promise)
            // Never below zero, whatever else answers.
            unanswered = max(0, unanswered - 1)
            if !awaitingContinue.isEmpty { _ = awaitingContinue.removeFirst() }
            // The next request's turn: flushed with this answer's end.
            sendContinueIfAwaited(context: context, flush: false)
            if unanswered == 0, let refusal {
                // On the next tick, once the answer before it is flushed (its writer flushes after this write).
                // The close then waits for the client's close_notify, at most TLS's shutdown timeout (1 s).
                let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
                context.eventLoop.execute { bound.value.0.answer(context: bound.value.1, refusal) }
            }
        default:
            context.write(data, promise: promise)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let failure = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        deadline.cancel()
        if readingBody {
            // The body of the request being served (a malformed chunk): its handler hears of it through the body it
            // reads, and answers it. Nothing after it is read.
            discarding = true
            return context.fireErrorCaught(error)
        }
        // Bytes after the connection's last request (a head cut by the close, say) are never read or answered.
        if closing || discarding { return }
        // The decoder counts the request line with the headers: an overlong query string is a header overflow too.
        // A malformed URL is a bad request, not a long one.
        refuse(
            context: context,
            failure == .headerOverflow
                ? HTTPErrorResponse(
                    status: .requestHeaderFieldsTooLarge, code: .requestHeaderFieldsTooLarge,
                    message: "The request line and headers are too large.")
                : HTTPErrorResponse(status: .badRequest, code: .badRequest, message: "The request head is malformed."))
    }

    /// Sends `100 Continue` for the request being served when it waits for one.
    private func sendContinueIfAwaited(context: ChannelHandlerContext, flush: Bool) {
        guard awaitingContinue.first == true, refusal == nil else { return }
        awaitingContinue[awaitingContinue.startIndex] = false
        let head = HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .continue))
        if flush {
            context.writeAndFlush(wrapOutboundOut(head), promise: nil)
        } else {
            context.write(wrapOutboundOut(head), promise: nil)
        }
    }

    /// Stops reading and answers with `refusal` once the requests before it are answered.
    private func refuse(context: ChannelHandlerContext, _ refusal: HTTPErrorResponse) {
        guard self.refusal == nil else { return }
        self.refusal = refusal
        if unanswered == 0 { answer(context: context, refusal) }
    }

    /// Writes `refusal` and closes the connection, once.
    private func answer(context: ChannelHandlerContext, _ refusal: HTTPErrorResponse) {
        guard !refused else { return }
        refused = true
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
