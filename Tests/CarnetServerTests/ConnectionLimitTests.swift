import CarnetServer
import Foundation
import Testing

/// Connections that would hold the server's file descriptors for ever: stalled before their handshake or their
/// first request, refused heads, and more connections than the process can hold (it trapped when descriptors ran
/// out). Each stalled client waits for the server to close it, with a bound only so that a regression fails
/// instead of hanging.
@Suite("Connections that stall, and too many of them")
struct ConnectionLimitTests {
    @Test("A connection that never finishes its TLS handshake or its first request head is closed")
    func stalledFirstRequest() async throws {
        try await withServer({ $0.firstRequestTimeout = .milliseconds(300) }) { server in
            // TCP only: no ClientHello ever comes.
            let silent = try await RawConnection.open(port: server.port, caPath: nil)
            #expect(try await silent.sendAndReadUntilClosed().isEmpty)
            // TLS done, then half a request head, never finished.
            let partial = try await RawConnection.open(port: server.port, caPath: server.caPath)
            #expect(try await partial.sendAndReadUntilClosed("GET /healthz HTTP/1.1\r\nHost: loc").isEmpty)
            // TLS done, nothing sent.
            let idle = try await RawConnection.open(port: server.port, caPath: server.caPath)
            #expect(try await idle.sendAndReadUntilClosed().isEmpty)
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
            #expect(reply.hasPrefix("HTTP/1.1 431") || reply.hasPrefix("HTTP/1.1 414"), "\(reply.prefix(200))")
            // Others are served as before.
            let status = try await TestClient.with(server) {
                try await $0.graphql("{ __typename }", token: token).status
            }
            #expect(status == 200)
        }
    }

    @Test("Past the connection limit a new connection is closed at once; a place freed is used again")
    func connectionLimit() async throws {
        try await withServer({ $0.maxConnections = 2 }) { server in
            let token = try await server.token()
            let held = [
                try await RawConnection.open(port: server.port, caPath: server.caPath),
                try await RawConnection.open(port: server.port, caPath: server.caPath),
            ]
            // Accepted and closed before any byte: the TLS handshake fails, or the stream just ends.
            let third = try await RawConnection.open(port: server.port, caPath: server.caPath)
            #expect(try await third.sendAndReadUntilClosed("GET /healthz HTTP/1.1\r\nHost: l\r\n\r\n").isEmpty)
            for connection in held { await connection.close() }
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
