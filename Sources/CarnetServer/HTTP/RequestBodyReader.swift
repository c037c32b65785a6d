import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTP2

/// Reads a request body whole, refusing it (413) as soon as it passes the limit, or as announced by
/// `Content-Length`. A client too slow to send it gets ``RequestBodyTimeout`` (408) from ``RequestBodyDeadlineHandler``.
enum RequestBodyReader {
    static func read(_ request: Request, limit: Int) async throws -> [UInt8] {
        let announced = request.headers.value(.contentLength).flatMap(Int.init)
        if let announced, announced > limit { throw tooLarge(limit) }
        // Chunks are kept as buffers and copied out once: a small body is one chunk, never copied twice.
        // A body that stops arriving throws RequestBodyTimeout (408), which renders itself.
        var collected: ByteBuffer?
        do {
            for try await chunk in request.body {
                guard (collected?.readableBytes ?? 0) + chunk.readableBytes <= limit else { throw tooLarge(limit) }
                if collected == nil { collected = chunk } else { collected!.writeImmutableBuffer(chunk) }
            }
        } catch let refused as HTTPParserError {
            // A chunked body the decoder refuses (a chunk size that is no number, trailers over its limits): the
            // client's fault, answered as such, not an unhandled error. The connection closes after it.
            throw refused == .headerOverflow
                ? HTTPErrorResponse(
                    status: .requestHeaderFieldsTooLarge, code: .requestHeaderFieldsTooLarge,
                    message: "The request's trailers are too large.")
                : HTTPErrorResponse(
                    status: .badRequest, code: .badRequest, message: "The request body's chunked encoding is malformed."
                )
        } catch is NIOHTTP2Errors.StreamClosed {
            // The HTTP/2 stream was reset mid-body, by its client or for its client's protocol error (a body past
            // its content-length): no one reads an answer, as when a client goes away.
            throw CancellationError()
        }
        let bytes = collected.map { Array($0.readableBytesView) } ?? []
        // The stream also ends when the connection closes mid-body: never act on part of a request.
        if let announced, bytes.count != announced {
            throw HTTPErrorResponse(
                status: .badRequest, code: .badRequest,
                message: "The request body ended before its Content-Length.")
        }
        return bytes
    }

    private static func tooLarge(_ limit: Int) -> HTTPErrorResponse {
        HTTPErrorResponse(
            status: .contentTooLarge, code: .requestTooLarge,
            message: "The request body is larger than \(limit) bytes.")
    }
}
