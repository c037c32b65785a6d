import CarnetGraphQL
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
        guard let token = bearerToken(header), let identity = try await tokens.verify(token) else {
            return HTTPErrorResponse.unauthorized("The access token is invalid or revoked.", invalidToken: true)
                .response()
        }
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
