import CarnetServer
import Foundation
import Testing

/// Request framing an outside hostile client sent over a real TLS listener: a chunked body the decoder refuses got
/// 500 INTERNAL_SERVER_ERROR (and an error log line), and a POST with WebSocket upgrade headers was upgraded.
@Suite("Hostile request framing")
struct HostileFramingTests {
    static let body = #"{"query":"{ __typename }"}"#

    static func post(_ token: String, _ headers: String, _ body: String) -> String {
        "POST /graphql HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/json\r\n\(headers)\r\n\(body)"
    }

    @Test("A chunked body the decoder refuses gets 400 BAD_REQUEST, trailers past its limits 431, with bodies")
    func malformedChunks() async throws {
        try await withServer { server in
            let token = try await server.token()
            let hex = String(Self.body.utf8.count, radix: 16)
            let cases = [
                ("zz\r\n\(Self.body)\r\n0\r\n\r\n", "400", "BAD_REQUEST"),
                ("ffffffffffffffffff\r\n\(Self.body)\r\n0\r\n\r\n", "400", "BAD_REQUEST"),
                (
                    "\(hex)\r\n\(Self.body)\r\n0\r\n" + String(repeating: "X-T: 1\r\n", count: 20_000) + "\r\n", "431",
                    "REQUEST_HEADER_FIELDS_TOO_LARGE"
                ),
            ]
            for (chunks, status, code) in cases {
                let connection = try await RawConnection.open(port: server.port, caPath: server.caPath)
                let reply = try await connection.sendAndReadUntilClosed(
                    Self.post(token, "Transfer-Encoding: chunked\r\n", chunks))
                #expect(reply.hasPrefix("HTTP/1.1 \(status)"), "\(reply.prefix(300))")
                #expect(reply.contains(#""code":"\#(code)""#), "\(reply.prefix(400))")
            }
            // A well-formed chunked body is served.
            let connection = try await RawConnection.open(port: server.port, caPath: server.caPath)
            let reply = try await connection.sendAndReadUntilClosed(
                Self.post(
                    token, "Transfer-Encoding: chunked\r\nConnection: close\r\n",
                    "\(hex)\r\n\(Self.body)\r\n0\r\n\r\n"))
            #expect(reply.hasPrefix("HTTP/1.1 200") && reply.contains(#""__typename":"Query""#), "\(reply.prefix(300))")
        }
    }

    @Test("A POST with WebSocket upgrade headers is not upgraded: it is served as the request it is")
    func upgradeOnPost() async throws {
        try await withServer { server in
            let token = try await server.token()
            let connection = try await RawConnection.open(port: server.port, caPath: server.caPath)
            let headers =
                "Upgrade: websocket\r\nConnection: Upgrade, close\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n"
                + "Content-Length: \(Self.body.utf8.count)\r\n"
            let reply = try await connection.sendAndReadUntilClosed(Self.post(token, headers, Self.body))
            #expect(reply.hasPrefix("HTTP/1.1 200") && reply.contains(#""__typename":"Query""#), "\(reply.prefix(300))")
        }
    }

    @Test("A GET asking for an upgrade to something else than a WebSocket (h2c, anything) is served as a GET")
    func otherUpgrades() async throws {
        try await withServer { server in
            for upgrade in [
                "Upgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings, close\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n",
                "Upgrade: foo\r\nConnection: close\r\n",
            ] {
                let connection = try await RawConnection.open(port: server.port, caPath: server.caPath)
                let reply = try await connection.sendAndReadUntilClosed(
                    "GET /healthz HTTP/1.1\r\nHost: localhost\r\n\(upgrade)\r\n")
                #expect(reply.hasPrefix("HTTP/1.1 200") && reply.contains(#"{"status":"ok"}"#), "\(reply.prefix(300))")
            }
        }
    }

    @Test("A WebSocket handshake no server can complete gets 426 or 400 with a body, not a silent close")
    func unsoundWebSocketHandshakes() async throws {
        // The sound handshake at the end sends no connection_init: the init timeout closes it (the ping timeout is
        // minutes now, since a slow reader's pong waits behind its answers).
        try await withServer({ $0.webSocketInitTimeout = .seconds(5) }) { server in
            let key = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            let cases = [
                ("Sec-WebSocket-Version: 8\r\n" + key, "426", "UPGRADE_REQUIRED"),
                (key, "426", "UPGRADE_REQUIRED"),
                ("Sec-WebSocket-Version: 13\r\n", "400", "BAD_REQUEST"),
                ("Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: short\r\n", "400", "BAD_REQUEST"),
                ("Sec-WebSocket-Version: 13\r\n" + key + key, "400", "BAD_REQUEST"),
            ]
            for (handshake, status, code) in cases {
                let connection = try await RawConnection.open(port: server.port, caPath: server.caPath)
                let reply = try await connection.sendAndReadUntilClosed(
                    "GET /graphql HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Protocol: graphql-transport-ws\r\n\(handshake)\r\n")
                #expect(reply.hasPrefix("HTTP/1.1 \(status)"), "\(handshake): \(reply.prefix(300))")
                #expect(reply.contains(#""code":"\#(code)""#), "\(handshake): \(reply.prefix(400))")
                if status == "426" {
                    #expect(reply.lowercased().contains("sec-websocket-version: 13"), "\(reply.prefix(400))")
                }
            }
            // Without Connection: Upgrade, or with a body (read as frames after the 101, the socket then heard
            // nothing more): 400. Over HTTP/1.0, which has no Upgrade, the plain GET it also is.
            let handshake =
                "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\(key)Sec-WebSocket-Protocol: graphql-transport-ws\r\n"
            for (request, status) in [
                ("GET /graphql HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\(handshake)\r\n", "400"),
                (
                    "GET /graphql HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\n\(handshake)"
                        + "Content-Length: 5\r\n\r\nhello", "400"
                ),
                ("GET /graphql HTTP/1.0\r\nHost: localhost\r\nConnection: Upgrade\r\n\(handshake)\r\n", "401"),
            ] {
                let reply = try await RawConnection.open(port: server.port, caPath: server.caPath)
                    .sendAndReadUntilClosed(request)
                #expect(reply.hasPrefix("HTTP/1.1 \(status)"), "\(request): \(reply.prefix(300))")
            }
            // A sound handshake elsewhere than the endpoint is the plain request it also is: 404 with its JSON body
            // (it was a bare 400).
            let elsewhere = try await RawConnection.open(port: server.port, caPath: server.caPath)
                .sendAndReadUntilClosed(
                    "GET /nope HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade, close\r\n"
                        + "Sec-WebSocket-Version: 13\r\n\(key)\r\n")
            #expect(
                elsewhere.hasPrefix("HTTP/1.1 404") && elsewhere.contains(#""code":"NOT_FOUND""#),
                "\(elsewhere.prefix(400))")
            // A sound handshake still upgrades.
            let connection = try await RawConnection.open(port: server.port, caPath: server.caPath)
            let reply = try await connection.sendAndReadUntilClosed(
                "GET /graphql HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Protocol: graphql-transport-ws\r\nSec-WebSocket-Version: 13\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
            #expect(reply.hasPrefix("HTTP/1.1 101"), "\(reply.prefix(300))")
        }
    }
}
