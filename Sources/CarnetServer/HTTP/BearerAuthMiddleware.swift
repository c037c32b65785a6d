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
        context.logger[metadataKey: "carnet.token"] = .string(identity.tokenID)
        return try await next(request, context)
    }
}

/// The token of an `Authorization: Bearer <token>` value (the scheme is case-insensitive).
func bearerToken(_ header: String) -> String? {
    let parts = header.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    let token = parts[1].trimmingCharacters(in: .whitespaces)
    return token.isEmpty ? nil : token
}
