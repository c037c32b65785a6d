import HTTPTypes
import Hummingbird

/// Refuses, at `/graphql`, every method but GET, POST and OPTIONS (PUT, DELETE, PATCH, HEAD, TRACE, PROPFIND, any
/// extension method) with 405 and its `Allow`. Routes answered only the methods they named, and the router the
/// others 404, as if the endpoint were not there.
struct GraphQLMethodMiddleware: RouterMiddleware {
    typealias Context = CarnetRequestContext

    /// The methods `/graphql` serves, as `Allow` lists them.
    static let allowed = "GET, POST, OPTIONS"
    static let served: Set<HTTPRequest.Method> = [.get, .post, .options]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard !Self.served.contains(request.method), request.uri.path == "/graphql" else {
            return try await next(request, context)
        }
        return HTTPErrorResponse.methodNotAllowed(Self.allowed, "Use GET or POST.").response()
    }
}
