import CarnetServer
import Foundation
import Testing

/// Connections that would hold the server's file descriptors for ever: stalled before their handshake or their
/// first request, refused heads, and more connections than the process can hold (it trapped when descriptors ran
/// out). Each stalled client waits for the server to close it, with a bound only so that a regression fails
/// instead of hanging.
@Suite("Connections that stall, and too many of them")
struct ConnectionLimitTests {
    /// What the server sends on a new connection after `text`, until it closes it: a connection closed before it
    /// is fully open (TCP, TLS) answered nothing. Throws ``RawConnectionError/stillOpen`` if it never closes.
    static func answer(port: Int, caPath: String?, _ text: String = "") async throws -> String {
        do {
            return try await RawConnection.open(port: port, caPath: caPath).sendAndReadUntilClosed(text)
        } catch let error where !(error is RawConnectionError) {
            return ""
        }
    }

    @Test("A connection that never finishes its TLS handshake or its first request head is closed")
    func stalledFirstRequest() async throws {
        try await withServer({ $0.firstRequestTimeout = .milliseconds(300) }) { server in
            // TCP only: no ClientHello ever comes.
            let silent = try await Self.answer(port: server.port, caPath: nil)
            // TLS done, then half a request head, never finished.
            let partial = try await Self.answer(
                port: server.port, caPath: server.caPath, "GET /healthz HTTP/1.1\r\nHost: loc")
            // TLS done, nothing sent.
            let idle = try await Self.answer(port: server.port, caPath: server.caPath)
            #expect(silent.isEmpty && partial.isEmpty && idle.isEmpty)
        }
    }

    @Test("A request head over the decoder's limits gets an HTTP error and the connection closes")
    func refusedHead() async throws {
        try await withServer { server in
            let token = try await server.token()
            let connection = try await RawConnection.open(port: server.port, caPath: server.caPath)
            let request =
                "GET /graphql?query=" + String(repeating: "a", count: 200_000)
                + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n\r\n"
            let reply = try await connection.sendAndReadUntilClosed(request)
            #expect(reply.hasPrefix("HTTP/1.1 431"), "\(reply.prefix(200))")
            // With the body every refusal has, whole (its length announced).
            let parts = reply.components(separatedBy: "\r\n\r\n")
            let body = parts.count == 2 ? parts[1] : ""
            #expect(body.contains(#""code":"REQUEST_HEADER_FIELDS_TOO_LARGE""#), "\(reply.prefix(400))")
            #expect(reply.lowercased().contains("content-length: \(body.utf8.count)\r\n"), "\(reply.prefix(400))")
            // Others are served as before.
            let status = try await TestClient.with(server) {
                try await $0.graphql("{ __typename }", token: token).status
            }
            #expect(status == 200)
        }
    }

    @Test("Past the connection limit a new connection is closed at once; a place freed is used again")
    func connectionLimit() async throws {
        // A long first-request deadline: on loaded cores the held connections' heads may come late, and a close
        // by that deadline is not what this test is about.
        try await withServer({
            $0.maxConnections = 2
            $0.firstRequestTimeout = .seconds(600)
        }) { server in
            let token = try await server.token()
            let connections = [
                try await RawConnection.open(port: server.port, caPath: server.caPath),
                try await RawConnection.open(port: server.port, caPath: server.caPath),
            ]
            // Each answers a request first: admitted for sure (connections are admitted on their own event loops,
            // so a later one could otherwise be counted first), then kept alive.
            let (answers, answered) = AsyncStream<Int>.makeStream()
            let held = connections.indices.map { index in
                Task {
                    try? await connections[index].sendAndReadUntilClosed("GET /healthz HTTP/1.1\r\nHost: l\r\n\r\n") {
                        _ in answered.yield(index)
                    }
                }
            }
            // A held connection closed without an answer ends the wait too (this test once hung there for ever).
            let ended = Task {
                for task in held { await task.value }
                answered.finish()
            }
            defer { ended.cancel() }
            var seen = Set<Int>()
            for await index in answers {
                seen.insert(index)
                if seen.count == connections.count { break }
            }
            try #require(seen.count == connections.count, "a held connection closed before its answer")
            // Accepted and closed before any byte.
            let refused = try await Self.answer(
                port: server.port, caPath: server.caPath, "GET /healthz HTTP/1.1\r\nHost: l\r\n\r\n")
            #expect(refused.isEmpty, "\(refused.prefix(300))")
            for task in held { task.cancel() }
            // The server notices the closes on its own event loops: try until a place is free.
            var status: UInt = 0
            for _ in 0..<200 where status != 200 {
                status =
                    (try? await TestClient.with(server) { try await $0.graphql("{ __typename }", token: token) })?
                    .status ?? 0
                if status != 200 { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(status == 200)
        }
    }
}
