import CarnetGraphQL
import CarnetStore
import HTTPTypes
import Hummingbird
import Logging

/// Requires `Authorization: Bearer <token>` (401 otherwise) and applies the token's rate limit (429).
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = CarnetRequestContext
    let tokens: AccessTokens
    let limiter: RateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let header = request.headers.value(.authorization) else {
            return HTTPErrorResponse.unauthorized(
                "An access token is required: Authorization: Bearer <token>.",
                invalidToken: false
            ).response()
        }
        let invalid = HTTPErrorResponse.unauthorized("The access token is invalid or revoked.", invalidToken: true)
        guard let token = bearerToken(header) else { return invalid.response() }
        let verified: AccessIdentity?
        do {
            verified = try await tokens.verify(token)
        } catch {
            return Self.unchecked(error, context).response()
        }
        guard let identity = verified else { return invalid.response() }
        if let wait = limiter.acquire(identity.tokenID) {
            return HTTPErrorResponse(
                status: .tooManyRequests, code: .rateLimited,
                message: "Too many requests for this token; retry after \(wait) s.",
                headers: [.retryAfter: String(wait)]
            ).response()
        }
        var context = context
        context.identity = identity
        return try await next(request, context)
    }
}

extension BearerAuthMiddleware {
    /// A token the catalog could not be asked about (its database unreachable): 503 with the store's code and
    /// `Retry-After`, as `/readyz` says and a WebSocket's close does, where it was a bare 500 (an outside tester's
    /// find). Not a 401: the token may well be good.
    static func unchecked(_ error: any Error, _ context: Context) -> HTTPErrorResponse {
        let store = error as? StoreError
        if store?.code != .unavailable, !(error is CancellationError) {
            context.logger.error(
                "An access token could not be checked",
                metadata: ["error.type": "\(String(reflecting: type(of: error)))"])
        }
        let wait = max(1, Int((store?.retryAfter ?? .seconds(1)).components.seconds))
        return HTTPErrorResponse(
            status: .serviceUnavailable, code: ErrorCode(store?.code ?? .storageFailure),
            message: "The access token cannot be checked now; retry after \(wait) s.",
            headers: [.retryAfter: String(wait)])
    }
}

/// The token of an `Authorization: Bearer <token>` value (the scheme is case-insensitive).
func bearerToken(_ header: String) -> String? {
    var header = header
    // On the bytes, without Foundation or String's generic views: this runs on every request.
    return header.withUTF8 { bytes -> String? in
        let scheme = "bearer ".utf8
        guard bytes.count > scheme.count, zip(bytes, scheme).allSatisfy({ ($0 | 0x20) == $1 }) else { return nil }
        var start = scheme.count
        var end = bytes.count
        while start < end, bytes[start] == 0x20 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 { end -= 1 }
        return start < end ? String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self) : nil
    }
}
