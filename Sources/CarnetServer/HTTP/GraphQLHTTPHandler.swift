import CarnetGraphQL
import CarnetStore
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// GraphQL over HTTP at `/graphql`, following the status-code profile of the graphql-http audit suite (see
/// `docs/http.md`): 200 for responses with `data`; request errors 200 under `application/json` and 400 under
/// `application/graphql-response+json`; 400 malformed requests, 405 mutations over GET, 406, 413, 414, 415.
struct GraphQLHTTPHandler: Sendable {
    let service: GraphQLService
    /// Where the caller's book is opened.
    let books: any AddressBookStores
    let tokens: AccessTokens
    let metrics: ServerMetrics
    let maxBodyBytes: Int
    /// What built responses may hold until their clients take them.
    let responseBudget: ResponseMemoryBudget

    func handle(_ request: Request, context: CarnetRequestContext) async throws -> Response {
        let start = ContinuousClock.now
        // Read before the body: a client that leaves during the body or validation is still a client that left.
        // An HTTP/2 stream reset before its handler runs is already inactive here but still has its connection's
        // address: that client has left (rapid resets ran every request to the end, minutes of work); only the
        // in-process test router's channel has neither.
        let hasConnection = context.channel.isActive || context.channel.remoteAddress != nil
        guard var identity = context.identity else {
            return HTTPErrorResponse.unauthorized("An access token is required.", invalidToken: false).response()
        }
        guard let mediaType = ResponseMediaType.negotiate(request.headers.value(.accept)) else {
            return HTTPErrorResponse(
                status: .notAcceptable, code: .notAcceptable,
                message: "Accept application/graphql-response+json or application/json.",
                headers: [.accept: "application/graphql-response+json, application/json"]
            ).response()
        }
        var body: GraphQLRequestBody
        do {
            body = try await parameters(request, context)
        } catch let refusal as HTTPErrorResponse {
            return refusal.response()
        } catch let refusal as RequestBodyTimeout {
            // Returned rather than thrown, like every refusal here, so the middleware (CORS) still sees it.
            return try refusal.response(from: request, context: context)
        } catch let error as GraphQLRequestError {
            return HTTPErrorResponse(
                status: .badRequest, code: error.errors.first?.code ?? .badRequest,
                message: error.errors.first?.message ?? "Bad request"
            ).response()
        }
        body.persistedQueryScope = identity.principalID
        let operation: GraphQLService.Operation
        do {
            operation = try service.operation(for: body)
        } catch {
            // A mutation over GET is refused as one whatever its variables (GraphQL over HTTP: 405 comes first).
            if request.method == .get, let kind = service.operationKind(for: body), kind != .query {
                return Self.needsPost(kind)
            }
            return finish(GraphQLResponse(error), mediaType, start, context, responseBudget.reservation())
        }
        if request.method == .get, operation.kind != .query { return Self.needsPost(operation.kind) }
        // The caller's book stays open while the operation runs.
        let store: any ContactStore
        do {
            store = try await books.acquire(identity.book)
        } catch let error as StoreError where error.code == .recordDoesNotExist {
            // The token's book was deleted since its identity was cached. Asked afresh, the token means another of
            // its books, or nothing any more: 401, as every later request will get. Not a fault of the server's.
            guard let fresh = try? await tokens.recheck(identity, maxAge: .zero), fresh.book.id != identity.book.id,
                let reopened = try? await books.acquire(fresh.book)
            else {
                return HTTPErrorResponse.unauthorized("The access token is invalid or revoked.", invalidToken: true)
                    .response()
            }
            (identity, store) = (fresh, reopened)
        } catch {
            context.logger.error(
                "An address book could not be opened",
                metadata: ["error.type": "\(String(reflecting: type(of: error)))"])
            return HTTPErrorResponse(
                status: .serviceUnavailable, code: ErrorCode(.storageFailure),
                message: "The address book cannot be opened now."
            ).response()
        }
        var graphQLContext = identity.graphQLContext(store: store, tokens: tokens, books: books)
        // Hummingbird keeps running a handler whose client went away; the executor stops at its next check. A
        // connection counts as gone once it closes; a request that had none when it arrived (HummingbirdTesting's
        // in-process router) has no client to lose.
        let channel = context.channel
        if hasConnection { graphQLContext.isAbandoned = { !channel.isActive } }
        // A query's answer counts in the budget from its first bytes, not only once built and waiting to be read.
        let reservation = responseBudget.reservation()
        graphQLContext.admitResponseBytes = { reservation.resize(to: $0) }
        let response = await service.execute(operation, context: graphQLContext)
        await books.release(identity.book.id)
        // No one reads this answer; the request log and metrics say the client left (499, as nginx records it).
        if hasConnection, !channel.isActive { return Response(status: .clientClosedRequest) }
        return finish(response, mediaType, start, context, reservation)
    }

    /// Whether a Content-Encoding names no coding: `identity`, in any case, or empty.
    static func isIdentity(_ coding: String) -> Bool {
        coding.split(separator: ",").allSatisfy {
            let token = $0.trimmingCharacters(in: .whitespaces).lowercased()
            return token.isEmpty || token == "identity"
        }
    }

    /// The request's GraphQL parameters from the query string (GET) or the JSON body (POST).
    private func parameters(_ request: Request, _ context: CarnetRequestContext) async throws -> GraphQLRequestBody {
        if request.method == .get {
            guard (request.uri.query?.utf8.count ?? 0) <= maxBodyBytes else {
                throw HTTPErrorResponse(
                    status: .uriTooLong, code: .uriTooLong, message: "The query string is too long.")
            }
            guard let items = decodeQueryString(request.uri.query) else {
                throw HTTPErrorResponse(status: .badRequest, code: .badRequest, message: "Malformed query string.")
            }
            return try GraphQLRequestBody(queryItems: items, maxJSONNesting: service.limits.maxJSONNesting)
        }
        guard isJSONContentType(request.headers.value(.contentType)) else {
            throw HTTPErrorResponse(
                status: .unsupportedMediaType, code: .unsupportedMediaType,
                message: "Send the request as Content-Type: application/json (UTF-8).")
        }
        // A coded body (gzip) was read as JSON and refused as malformed, and `br` on a plain one was run: the
        // server decodes no content coding, so any but identity is refused (RFC 9110 15.5.16).
        if let coding = request.headers.value(.contentEncoding), !Self.isIdentity(coding) {
            throw HTTPErrorResponse(
                status: .unsupportedMediaType, code: .unsupportedMediaType,
                message: "The request body must not be content-coded (Content-Encoding); send it as is.",
                headers: [.acceptEncoding: "identity"])
        }
        let bytes = try await RequestBodyReader.read(request, limit: maxBodyBytes)
        guard !bytes.isEmpty else {
            throw HTTPErrorResponse(status: .badRequest, code: .badRequest, message: "The request body is empty.")
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes, maxDepth: service.limits.maxJSONNesting)
        } catch let failure as JSONParser.Failure where failure.isTooDeep {
            throw GraphQLRequestError.jsonTooDeep("The request body", service.limits.maxJSONNesting)
        } catch let failure as JSONParser.Failure where failure.hasTooManyMarks {
            throw HTTPErrorResponse(
                status: .badRequest, code: .badRequest,
                message:
                    "A string in the request body holds more than \(CombiningMarks.maxRun) combining marks in a row.")
        } catch {
            throw HTTPErrorResponse(
                status: .badRequest, code: .badRequest, message: "The request body is not valid JSON.")
        }
        return try GraphQLRequestBody(json: json)
    }

    private func finish(
        _ response: GraphQLResponse, _ mediaType: ResponseMediaType, _ start: ContinuousClock.Instant,
        _ context: CarnetRequestContext, _ reservation: ResponseMemoryBudget.Reservation
    ) -> Response {
        let status = Self.status(response, mediaType)
        metrics.recordOperation(
            name: response.operationName, kind: response.operationKind?.rawValue ?? "unknown",
            status: String(status.code), duration: ContinuousClock.now - start)
        if response.failure != nil {
            context.logger.debug(
                "GraphQL request refused",
                metadata: [
                    "graphql.failure": .string(response.failure.map { "\($0)" } ?? ""),
                    "graphql.operation": .string(response.operationName ?? ""),
                ])
        }
        let bytes = response.body
        // A query's reservation already holds about its answer (shrunk to it here); others ask now.
        guard !response.wasCutShort, reservation.resize(to: bytes.count) || response.committed else {
            context.logger.warning(
                "A response was dropped: responses being built or not yet read are over their budget")
            return HTTPErrorResponse(
                status: .serviceUnavailable, code: .serverBusy,
                message:
                    "The server holds as many responses, being built or not yet read, as it may. Try again shortly.",
                headers: [.retryAfter: "1"]
            ).response()
        }
        // An HTTP/2 stream's channel (its parent a connection, whose parent is the listener) takes every write at
        // once and NIOHTTP2 keeps what the client's window does not let out yet: the answer is held until the stream
        // closes. Over HTTP/1.1 the answer is held until its last byte left the process (``OutboundDrain``).
        let channel = context.channel
        let isStream = channel.parent?.parent != nil
        if isStream {
            channel.closeFuture.whenComplete { _ in withExtendedLifetime(reservation) {} }
        }
        if bytes.count <= Self.writeChunkBytes {
            // Most answers fit one piece: written as one buffer, as before the budget (no body closure to run). Such
            // an answer fits the kernel's buffers, so its reservation goes with the write.
            return Response(
                status: status, headers: [.contentType: mediaType.contentType],
                body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        return Response(
            status: status, headers: [.contentType: mediaType.contentType],
            body: ResponseBody(contentLength: bytes.count) { writer in
                // In pieces, each copied as the connection takes it, a few ahead of the socket: the whole answer is
                // not held twice, and over HTTP/1.1 it counts against the budget until its last byte has gone.
                var offset = 0
                while offset < bytes.count {
                    if !isStream, offset % Self.writeAheadBytes == 0, offset > 0 {
                        await OutboundDrain.wait(channel, allBut: Self.writeAheadBytes)
                    }
                    let end = min(offset + Self.writeChunkBytes, bytes.count)
                    try await writer.write(ByteBuffer(bytes: bytes[offset..<end]))
                    offset = end
                }
                try await writer.finish(nil)
                if !isStream { await OutboundDrain.wait(channel) }
                withExtendedLifetime(reservation) {}
            })
    }

    static let writeChunkBytes = 64 * 1024
    /// How much of an answer is written ahead of what the socket has taken (at most twice this), in whole chunks.
    static let writeAheadBytes = 512 * 1024

    static func status(_ response: GraphQLResponse, _ mediaType: ResponseMediaType) -> HTTPResponse.Status {
        switch response.failure {
        case nil, .persistedQueryNotFound?: .ok
        case .badRequest?, .persistedQueryInvalid?: .badRequest
        case .operationNotAllowed? where response.requestErrorCode == ErrorCode.forbidden.rawValue: .forbidden
        case .operationNotAllowed?, .parseFailed?, .validationFailed?, .operationNotFound?, .variableCoercionFailed?:
            mediaType == .json ? .ok : .badRequest
        }
    }
}

extension GraphQLHTTPHandler {
    static func needsPost(_ kind: OperationKind) -> Response {
        HTTPErrorResponse.methodNotAllowed("POST", "\(kind.rawValue.capitalized) operations need POST.").response()
    }
}
