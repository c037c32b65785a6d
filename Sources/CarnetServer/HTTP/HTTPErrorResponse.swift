import CarnetGraphQL
import HTTPTypes
import Hummingbird
import NIOCore

/// A refusal outside GraphQL execution (401, 405, 406, 413, 415, 429 ...): a JSON body shaped like a GraphQL
/// response with one error and its code, so every client reads failures the same way.
struct HTTPErrorResponse: Error, Sendable {
    var status: HTTPResponse.Status
    var code: ErrorCode
    var message: String
    var headers: HTTPFields = [:]

    /// `next`'s answer, a refusal it throws made an answer here, so that the middleware it passes through on the
    /// way out (CORS, `Vary`) adds its headers to it too.
    static func answer<Context>(
        _ request: Request, _ context: Context, _ next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let refusal as HTTPErrorResponse {
            return refusal.response()
        }
    }

    func response() -> Response {
        var headers = self.headers
        headers[.contentType] = ResponseMediaType.json.contentType
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The JSON body: `{"errors":[{"message":…,"extensions":{"code":…}}]}`.
    var body: [UInt8] {
        var writer = JSONWriter(capacity: 128)
        writer.beginObject()
        writer.key("errors")
        writer.beginArray()
        writer.beginObject()
        writer.key("message")
        writer.string(message)
        writer.key("extensions")
        writer.beginObject()
        writer.key("code")
        writer.string(code.rawValue)
        writer.endObject()
        writer.endObject()
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }

    static func unauthorized(_ message: String, invalidToken: Bool) -> HTTPErrorResponse {
        HTTPErrorResponse(
            status: .unauthorized, code: .unauthenticated, message: message,
            headers: [
                .wwwAuthenticate: invalidToken
                    ? #"Bearer realm="carnet", error="invalid_token""# : #"Bearer realm="carnet""#
            ])
    }

    static func methodNotAllowed(_ allow: String, _ message: String) -> HTTPErrorResponse {
        HTTPErrorResponse(
            status: .methodNotAllowed, code: .methodNotAllowed, message: message,
            headers: [.allow: allow])
    }
}
