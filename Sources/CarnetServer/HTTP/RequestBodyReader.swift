import HTTPTypes
import Hummingbird
import NIOCore

/// Reads a request body whole, refusing it (413) as soon as it passes the limit, or as announced by
/// `Content-Length`, and giving up (408) on a client too slow to send it.
enum RequestBodyReader {
    static func read(_ request: Request, limit: Int, timeout: Duration) async throws -> [UInt8] {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw tooLarge(limit)
        }
        return try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
            group.addTask {
                var bytes: [UInt8] = []
                for try await var chunk in request.body {
                    guard bytes.count + chunk.readableBytes <= limit else { throw tooLarge(limit) }
                    bytes += chunk.readBytes(length: chunk.readableBytes) ?? []
                }
                return bytes
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let bytes = first else {
                throw HTTPErrorResponse(status: .requestTimeout, code: "REQUEST_TIMEOUT",
                    message: "The request body took too long to arrive.")
            }
            return bytes
        }
    }

    private static func tooLarge(_ limit: Int) -> HTTPErrorResponse {
        HTTPErrorResponse(status: .contentTooLarge, code: "REQUEST_TOO_LARGE",
            message: "The request body is larger than \(limit) bytes.")
    }
}
