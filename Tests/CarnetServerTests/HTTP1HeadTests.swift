import CarnetServer
import CarnetTestSupport
import Foundation
import Testing

/// What RFC 9112 asks of HTTP/1.x request heads, over a real TLS listener with raw requests: a Host on every
/// HTTP/1.1 request, and a connection that closes when its client asks, however it asks. Each request is sent with
/// others pipelined behind it, so the answers' order and what is left unread are checked too.
@Suite("HTTP/1.x request heads")
struct HTTP1HeadTests {
    static func get(_ version: String = "1.1", _ headers: String = "Host: localhost\r\n") -> String {
        "GET /healthz HTTP/\(version)\r\n\(headers)\r\n"
    }

    /// The statuses of the answers in `reply`, in order (a body ends without a line break, so an answer's status
    /// line may follow the last one's body on the same line).
    static func statuses(_ reply: String) -> [String] {
        var statuses: [String] = []
        for piece in reply.components(separatedBy: "HTTP/1.1 ").dropFirst() {
            let status = piece.prefix(3)
            if status.count == 3, status.allSatisfy(\.isNumber), piece.dropFirst(3).first == " " {
                statuses.append(String(status))
            }
        }
        return statuses
    }

    @Test("An HTTP/1.1 request without a Host, or with two, gets 400 in its turn, and the connection closes")
    func host() async throws {
        try await withServer { server in
            for refused in [Self.get("1.1", ""), Self.get("1.1", "Host: localhost\r\nHost: other\r\n")] {
                let connection = try await RawConnection.open(port: server.port, caPath: server.caPath)
                // A good request before it is answered first; one after it is not read.
                let reply = try await connection.sendAndReadUntilClosed(
                    Self.get() + refused + Self.get(), limit: .seconds(30))
                #expect(Self.statuses(reply) == ["200", "400"], "\(reply.prefix(600))")
                #expect(reply.contains(#""code":"BAD_REQUEST""#), "\(reply.prefix(600))")
            }
            // HTTP/1.0 needs no Host; without keep-alive its connection closes after the answer.
            let connection = try await RawConnection.open(port: server.port, caPath: server.caPath)
            let reply = try await connection.sendAndReadUntilClosed(Self.get("1.0", ""), limit: .seconds(30))
            #expect(Self.statuses(reply) == ["200"], "\(reply.prefix(600))")
        }
    }

    @Test("A body in a transfer coding other than chunked gets 501 in its turn, and the connection closes")
    func transferCodings() async throws {
        try await withServer { server in
            let token = try await server.token()
            let body = #"{"query":"{ __typename }"}"#
            let chunked = String(body.utf8.count, radix: 16) + "\r\n\(body)\r\n0\r\n\r\n"
            for coding in ["gzip, chunked", "deflate, chunked", "chunked", "Chunked"] {
                let connection = try await RawConnection.open(port: server.port, caPath: server.caPath)
                let reply = try await connection.sendAndReadUntilClosed(
                    Self.get()
                        + HostileFramingTests.post(
                            token, "Transfer-Encoding: \(coding)\r\nConnection: close\r\n", chunked),
                    limit: .seconds(30))
                let refused = coding.contains(",")
                #expect(Self.statuses(reply) == ["200", refused ? "501" : "200"], "\(coding): \(reply.prefix(600))")
                #expect(reply.contains(#""code":"NOT_IMPLEMENTED""#) == refused, "\(coding): \(reply.prefix(600))")
            }
        }
    }

    /// CONNECT got a 404 whose head NIO framed without a body and a connection left open: the client waited for the
    /// answer's end until the idle timeout, 60 s (an outside fuzzer's find). TRACE and PROPFIND got 404.
    @Test("CONNECT gets 405 in its turn and the connection closes; other unrouted methods at /graphql get 405")
    func unroutedMethods() async throws {
        try await withServer { server in
            let connection = try await RawConnection.open(port: server.port, caPath: server.caPath)
            let reply = try await connection.sendAndReadUntilClosed(
                Self.get() + "CONNECT /graphql HTTP/1.1\r\nHost: localhost\r\n\r\n" + Self.get(), limit: .seconds(30))
            #expect(Self.statuses(reply) == ["200", "405"], "\(reply.prefix(600))")
            #expect(reply.lowercased().contains("allow: get, post, options"), "\(reply.prefix(600))")
            for method in ["TRACE", "PROPFIND", "MKCOL"] {
                let connection = try await RawConnection.open(port: server.port, caPath: server.caPath)
                let reply = try await connection.sendAndReadUntilClosed(
                    "\(method) /graphql HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n", limit: .seconds(30))
                #expect(Self.statuses(reply) == ["405"], "\(method): \(reply.prefix(600))")
                #expect(reply.contains(#""code":"METHOD_NOT_ALLOWED""#), "\(method): \(reply.prefix(600))")
            }
        }
    }

    @Test("A request that asks to close, in any case or among other tokens, is the connection's last, and says so")
    func connectionClose() async throws {
        try await withServer { server in
            for options in ["close", "Close", "keep-alive, close", "TE, CLOSE"] {
                let connection = try await RawConnection.open(port: server.port, caPath: server.caPath)
                // The server must close after the first answer: the second request is never answered, and a
                // server that kept the connection open fails at the limit instead.
                let reply = try await connection.sendAndReadUntilClosed(
                    Self.get() + Self.get("1.1", "Host: localhost\r\nConnection: \(options)\r\n") + Self.get(),
                    limit: .seconds(30))
                #expect(Self.statuses(reply) == ["200", "200"], "\(options): \(reply.prefix(600))")
                // A head cut by the close is not answered either (its decoder error was once refused with a 400).
                let cut = try await RawConnection.open(port: server.port, caPath: server.caPath)
                    .sendAndReadUntilClosed(
                        Self.get("1.1", "Host: localhost\r\nConnection: \(options)\r\n")
                            + "GET /healthz HTTP/1.1\r\nHo",
                        limit: .seconds(30))
                #expect(Self.statuses(cut) == ["200"], "\(options): \(cut.prefix(600))")
                let lastHead = reply.components(separatedBy: "HTTP/1.1 ").last ?? ""
                #expect(lastHead.lowercased().contains("connection: close"), "\(options): \(reply.prefix(600))")
            }
        }
    }

    /// Generated pipelines: a few requests of random kinds sent in one write. The answers must be the model's: one
    /// per request, in order, up to and including the first that refuses or closes, then nothing and a close.
    @Test("Generated pipelines of good, refused and closing requests are answered in order, up to the first that ends")
    func generatedPipelines() async throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededRandom(seed: seed)
        // Each kind: its request, its status, and whether the connection ends after it.
        let kinds: [(String, String, Bool)] = [
            (Self.get(), "200", false), (Self.get("1.1", "Host: a\r\nConnection: keep-alive\r\n"), "200", false),
            (Self.get("1.1", ""), "400", true), (Self.get("1.1", "Host: a\r\nHost: b\r\n"), "400", true),
            (Self.get("1.1", "Host: a\r\nConnection: x, Close\r\n"), "200", true), (Self.get("1.0", ""), "200", true),
            (Self.get("1.0", "Connection: keep-alive\r\n"), "200", false),
            ("POST /graphql HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", "501", true),
            ("GET /nowhere HTTP/1.1\r\nHost: a\r\n\r\n", "404", false),
            // Heads the decoder refuses, answered with the same 400 wherever they come.
            ("GARBAGE\r\n\r\n", "400", true),
            ("GET /healthz HTTP/1.1\r\nHost: a\r\nBad Header: x\r\n\r\n", "400", true),
        ]
        try await withServer { server in
            for round in 0..<12 {
                let pipeline = (0..<random.int(1...5)).map { _ in random.pick(kinds)! }
                var expected: [String] = []
                for (_, status, ends) in pipeline {
                    expected.append(status)
                    if ends { break }
                }
                // A pipeline that never ends the connection asks to close with a last request of its own.
                let ended = pipeline.contains { $0.2 }
                let text =
                    pipeline.map(\.0).joined() + (ended ? "" : Self.get("1.1", "Host: a\r\nConnection: close\r\n"))
                if !ended { expected.append("200") }
                let connection = try await RawConnection.open(port: server.port, caPath: server.caPath)
                let reply = try await connection.sendAndReadUntilClosed(text, limit: .seconds(30))
                #expect(
                    Self.statuses(reply) == expected,
                    "seed \(seed) round \(round): \(pipeline.map(\.1)) → \(reply.prefix(800))")
                // Every answer says what it is: a refused head pipelined behind a request being served got an
                // empty 400 from Hummingbird.
                #expect(
                    !reply.lowercased().contains("content-length: 0\r\n"),
                    "seed \(seed) round \(round): \(pipeline.map(\.1)) → \(reply.prefix(800))")
            }
        }
    }
}
