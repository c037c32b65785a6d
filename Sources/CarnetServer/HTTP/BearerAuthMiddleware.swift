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
        guard let header = request.headers[.authorization] else {
            return HTTPErrorResponse.unauthorized("An access token is required: Authorization: Bearer <token>.",
                invalidToken: false).response()
        }
        guard let token = bearerToken(header), let identity = try await tokens.verify(token) else {
            return HTTPErrorResponse.unauthorized("The access token is invalid or revoked.", invalidToken: true)
                .response()
        }
        if let wait = limiter.acquire(identity.tokenID) {
            return HTTPErrorResponse(status: .tooManyRequests, code: "RATE_LIMITED",
                message: "Too many requests for this token; retry after \(wait) s.",
                headers: [.retryAfter: String(wait)]).response()
        }
        var context = context
        context.identity = identity
        return try await next(request, context)
    }
}

/// The token of an `Authorization: Bearer <token>` value (the scheme is case-insensitive).
func bearerToken(_ header: String) -> String? {
    var utf8 = Substring(header).utf8
    guard utf8.count > 7 else { return nil }
    let scheme = utf8.prefix(7)
    // "Bearer " in any case, without Foundation: this runs on every request.
    guard zip(scheme, "bearer ".utf8).allSatisfy({ ($0 | 0x20) == $1 }) else { return nil }
    utf8 = utf8.dropFirst(7)
    while utf8.first == 0x20 { utf8 = utf8.dropFirst() }
    while utf8.last == 0x20 { utf8 = utf8.dropLast() }
    return utf8.isEmpty ? nil : String(Substring(utf8))
}
