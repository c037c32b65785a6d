import HTTPTypes
import Hummingbird

/// `Vary: Accept` on every answer of `/graphql`: its media type, and for some errors its status (400 as
/// `application/graphql-response+json`, 200 as `application/json`), follow `Accept`, and a cache that did not know
/// it could hand one client's answer to another (RFC 9110 12.5.5; an outside tester's find). Refusals thrown as
/// ``HTTPErrorResponse`` are made answers here, so that they carry it too.
struct VaryAcceptMiddleware: RouterMiddleware {
    typealias Context = CarnetRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response = try await HTTPErrorResponse.answer(request, context, next)
        response.headers.append(HTTPField(name: .vary, value: "Accept"))
        return response
    }
}
