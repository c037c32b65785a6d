import HTTPTypes
import Hummingbird

/// Sends every answer to a HEAD without its body (RFC 9110 9.3.2), whichever route or refusal made it: over HTTP/2 a
/// body on a HEAD stream is a stream error, which ended the client's whole connection.
struct HeadRequestMiddleware: RouterMiddleware {
    typealias Context = CarnetRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.method == .head else { return try await next(request, context) }
        let response = try await next(request, context)
        var headers = response.headers
        if headers[.contentLength] == nil, let length = response.body.contentLength {
            headers[.contentLength] = String(length)
        }
        return Response(status: response.status, headers: headers, body: ResponseBody())
    }
}
