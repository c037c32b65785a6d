import HTTPTypes
import Hummingbird

/// CORS for browser frontends from the configured origins (`*`: any). Preflights are answered here, before
/// authentication, because browsers send them without credentials.
struct CORSMiddleware: RouterMiddleware {
    typealias Context = CarnetRequestContext
    let allowedOrigins: Set<String>
    static let allowedHeaders = "authorization, content-type, accept, graphql-require-preflight"
    static let maxAge = "600"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let origin = request.headers.value(.origin) else { return try await next(request, context) }
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
        var response = try await next(request, context)
        if allowed {
            response.headers[.accessControlAllowOrigin] = origin
            response.headers[.accessControlExposeHeaders] = "Retry-After, WWW-Authenticate"
            response.headers.append(HTTPField(name: .vary, value: "Origin"))
        }
        return response
    }
}
