import NIOHTTP1

/// What RFC 9112 asks of an HTTP/1.x request head before it is served, where NIO's decoder and Hummingbird leave it
/// to the server: exactly one Host on HTTP/1.1, and whether the connection ends after the answer.
enum HTTP1HeadRules {
    /// The refusal for an HTTP/1.1 request without a Host or with more than one (RFC 9112 3.2: "A server MUST
    /// respond with a 400"), for a body in a transfer coding other than `chunked` (6.1: 501; NIO's decoder
    /// reads `gzip, chunked` as chunked and the body would be taken for JSON as it came), or for CONNECT (405),
    /// or nil.
    static func refusal(for head: HTTPRequestHead) -> HTTPErrorResponse? {
        // CONNECT asks for a tunnel, which this server never opens. NIO frames any answer to it without a body
        // (a 2xx one switches to the tunnel), so a connection left open after it left the client waiting for the
        // end of the answer until the idle timeout; refused here, the connection closes after the head.
        if head.method == .CONNECT {
            return .methodNotAllowed(GraphQLMethodMiddleware.allowed, "CONNECT is not served: this server is no proxy.")
        }
        if head.version.major == 1, head.version.minor >= 1, head.headers["host"].count != 1 {
            return HTTPErrorResponse(
                status: .badRequest, code: .badRequest, message: "An HTTP/1.1 request needs exactly one Host header.")
        }
        if head.headers[canonicalForm: "transfer-encoding"].contains(where: { $0.lowercased() != "chunked" }) {
            return HTTPErrorResponse(
                status: .notImplemented, code: .notImplemented,
                message: "The only transfer coding this server reads is chunked.")
        }
        return nil
    }

    /// Whether the connection closes after this request's answer (RFC 9112 9.3): the `close` option among any
    /// Connection tokens, in any case, or HTTP/1.0 without `keep-alive`. Hummingbird closes only on a Connection
    /// of exactly `close`, so `Connection: Close` or `keep-alive, close` kept the connection open.
    static func closes(_ head: HTTPRequestHead) -> Bool {
        let options = head.headers[canonicalForm: "connection"].map { $0.lowercased() }
        if options.contains("close") { return true }
        return head.version.major == 1 && head.version.minor == 0 && !options.contains("keep-alive")
    }

    /// Whether the client waits for `100 Continue` before it sends the body (RFC 9110 10.1.1): an HTTP/1.1 request
    /// with a `100-continue` expectation and a body to follow. The server "MUST" send it at once (or the final
    /// answer); without it, curl waited a second on each such request, and a client without a timeout until the
    /// body's deadline answered 408 (an outside tester's find). HTTP/1.0 clients get none (10.1.1: "MUST NOT"),
    /// nor does a body announced over `maxBodyBytes`: its final answer, 413, comes at once instead.
    static func expectsContinue(_ head: HTTPRequestHead, maxBodyBytes: Int) -> Bool {
        guard head.version.major == 1, head.version.minor >= 1,
            head.headers[canonicalForm: "expect"].contains(where: { $0.lowercased() == "100-continue" })
        else { return false }
        if head.headers.contains(name: "transfer-encoding") { return true }
        let lengths = head.headers["content-length"].compactMap { Int($0) }
        return lengths.contains { $0 > 0 && $0 <= maxBodyBytes }
    }

    /// The head without its `Upgrade`, its upgrade's own tokens and HTTP2-Settings: only a connection's first
    /// request may upgrade it, and only a GET to a WebSocket (RFC 6455); RFC 9110 lets a server ignore any other
    /// Upgrade. Left in, a POST with a body and upgrade headers was upgraded (101, then an error logged for its
    /// body), or, declined, never answered; an `h2c` upgrade was closed without an answer.
    static func withoutUpgrade(_ head: HTTPRequestHead) -> HTTPRequestHead {
        var head = head
        head.headers.remove(name: "upgrade")
        head.headers.remove(name: "http2-settings")
        let connection = head.headers[canonicalForm: "connection"].filter {
            !["upgrade", "http2-settings"].contains($0.lowercased())
        }
        head.headers.remove(name: "connection")
        if !connection.isEmpty { head.headers.add(name: "connection", value: connection.joined(separator: ", ")) }
        return head
    }
}
