import Hummingbird
import NIOCore
import Synchronization

/// Reads a request body whole, refusing it (413) as soon as it passes the limit, or as announced by
/// `Content-Length`, and giving up (408) on a client too slow to send it.
enum RequestBodyReader {
    static func read(_ request: Request, limit: Int, timeout: Duration, deadlines: Deadlines) async throws -> [UInt8] {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw tooLarge(limit)
        }
        let reader = Task {
            var bytes: [UInt8] = []
            for try await var chunk in request.body {
                guard bytes.count + chunk.readableBytes <= limit else { throw tooLarge(limit) }
                bytes += chunk.readBytes(length: chunk.readableBytes) ?? []
            }
            return bytes
        }
        let expired = ExpiryFlag()
        let ticket = deadlines.add(.now + timeout) {
            expired.value.store(true, ordering: .relaxed)
            reader.cancel()
        }
        defer { deadlines.remove(ticket) }
        do {
            return try await withTaskCancellationHandler { try await reader.value } onCancel: { reader.cancel() }
        } catch where expired.value.load(ordering: .relaxed) {
            throw HTTPErrorResponse(status: .requestTimeout, code: "REQUEST_TIMEOUT",
                message: "The request body took too long to arrive.")
        }
    }

    private static func tooLarge(_ limit: Int) -> HTTPErrorResponse {
        HTTPErrorResponse(status: .contentTooLarge, code: "REQUEST_TOO_LARGE",
            message: "The request body is larger than \(limit) bytes.")
    }
}

private final class ExpiryFlag: Sendable {
    let value = Atomic(false)
}
