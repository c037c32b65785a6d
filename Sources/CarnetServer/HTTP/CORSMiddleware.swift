import HTTPTypes
import Hummingbird

/// CORS for browser frontends from the configured origins (`*`: any; none: off). Preflights are answered here,
/// before authentication, because browsers send them without credentials.
struct CORSMiddleware: RouterMiddleware {
    typealias Context = CarnetRequestContext
    let allowedOrigins: Set<String>
    static let allowedHeaders = "authorization, content-type, accept, graphql-require-preflight"
    static let maxAge = "600"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard !allowedOrigins.isEmpty else { return try await next(request, context) }
        guard let origin = request.headers.value(.origin) else {
            return Self.varyingByOrigin(try await HTTPErrorResponse.answer(request, context, next))
        }
        let allowed = allowedOrigins.contains("*") || allowedOrigins.contains(origin)
        if request.method == .options, request.headers.value(.accessControlRequestMethod) != nil {
            guard allowed else { return Response(status: .forbidden, headers: [.vary: "Origin"]) }
            return Response(
                status: .noContent,
                headers: [
                    .accessControlAllowOrigin: origin,
                    .accessControlAllowMethods: "GET, POST, OPTIONS",
                    .accessControlAllowHeaders: Self.allowedHeaders,
                    .accessControlMaxAge: Self.maxAge,
                    .vary: "Origin",
                ])
        }
        var response = try await HTTPErrorResponse.answer(request, context, next)
        if allowed {
            response.headers[.accessControlAllowOrigin] = origin
            response.headers[.accessControlExposeHeaders] = "Retry-After, WWW-Authenticate"
        }
        return Self.varyingByOrigin(response)
    }

    /// Every answer says `Vary: Origin`, with or without `Access-Control-Allow-Origin`: a cache that stored an
    /// answer to a request without `Origin` (or from a refused one) must not hand it to an allowed origin's, which
    /// needs the header (Fetch's CORS protocol and caching; an outside tester's find).
    private static func varyingByOrigin(_ response: Response) -> Response {
        var response = response
        response.headers.append(HTTPField(name: .vary, value: "Origin"))
        return response
    }
}
