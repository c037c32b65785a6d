import Hummingbird
import NIOCore

/// Reads a request body whole, refusing it (413) as soon as it passes the limit, or as announced by
/// `Content-Length`, and answering 408 when ``RequestBodyDeadlineHandler`` gave up on a client too slow to send it.
enum RequestBodyReader {
    static func read(_ request: Request, limit: Int) async throws -> [UInt8] {
        let announced = request.headers[.contentLength].flatMap(Int.init)
        if let announced, announced > limit { throw tooLarge(limit) }
        var bytes: [UInt8] = []
        do {
            for try await var chunk in request.body {
                guard bytes.count + chunk.readableBytes <= limit else { throw tooLarge(limit) }
                bytes += chunk.readBytes(length: chunk.readableBytes) ?? []
            }
        } catch is RequestBodyTimeout {
            throw HTTPErrorResponse(status: .requestTimeout, code: "REQUEST_TIMEOUT",
                message: "The request body took too long to arrive.")
        }
        // The stream also ends when the connection closes mid-body: never act on part of a request.
        if let announced, bytes.count != announced {
            throw HTTPErrorResponse(status: .badRequest, code: "BAD_REQUEST",
                message: "The request body ended before its Content-Length.")
        }
        return bytes
    }

    private static func tooLarge(_ limit: Int) -> HTTPErrorResponse {
        HTTPErrorResponse(status: .contentTooLarge, code: "REQUEST_TOO_LARGE",
            message: "The request body is larger than \(limit) bytes.")
    }
}
