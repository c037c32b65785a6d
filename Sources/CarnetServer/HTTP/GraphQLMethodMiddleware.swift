import HTTPTypes
import Hummingbird

/// Refuses, at `/graphql`, the methods no route there takes (TRACE, PROPFIND, any extension method) with 405 and
/// its `Allow`, as the routed ones (PUT, DELETE, PATCH, HEAD) are: the router answered them 404, as if the endpoint
/// were not there.
struct GraphQLMethodMiddleware: RouterMiddleware {
    typealias Context = CarnetRequestContext

    static let routed: Set<HTTPRequest.Method> = [.get, .post, .options, .put, .delete, .patch, .head]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard !Self.routed.contains(request.method), request.uri.path == "/graphql" else {
            return try await next(request, context)
        }
        return HTTPErrorResponse.methodNotAllowed("GET, POST, OPTIONS", "Use GET or POST.").response()
    }
}
