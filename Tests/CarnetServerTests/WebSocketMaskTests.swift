import CarnetServer
import Foundation
import Testing

/// RFC 6455 §5.1: a server must close the connection when a client's frame is not masked. Unmasked
/// connection_init and subscribe frames were served (an outside tester's find).
@Suite("WebSocket frames without a mask")
struct WebSocketMaskTests {
    static let handshake = Array(
        ("GET /graphql HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Protocol: graphql-transport-ws\r\nSec-WebSocket-Version: 13\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n").utf8)

    /// A final frame of `opcode` (payload under 64 KiB), masked with `key` when given.
    static func frame(_ opcode: UInt8, _ payload: [UInt8], mask key: [UInt8]?) -> [UInt8] {
        let masked: UInt8 = key == nil ? 0 : 0x80
        var bytes: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            bytes.append(masked | UInt8(payload.count))
        } else {
            bytes += [masked | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        guard let key else { return bytes + payload }
        bytes += key
        bytes += payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
        return bytes
    }

    static func initMessage(_ token: String) -> [UInt8] {
        Array(#"{"type":"connection_init","payload":{"authorization":"Bearer \#(token)"}}"#.utf8)
    }

    /// What the server sent after its 101 answer's head.
    static func frames(after reply: [UInt8]) -> [UInt8] {
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        guard let start = (0...max(0, reply.count - 4)).first(where: { Array(reply[$0..<$0 + 4]) == end }) else {
            return []
        }
        return Array(reply[(start + 4)...])
    }

    @Test("An unmasked connection_init is not served: the server closes with 1002", arguments: [true, false])
    func unmaskedFrameCloses(tls: Bool) async throws {
        // Plain HTTP too: behind a TLS-terminating proxy, which passes frames as they come.
        try await withServer({ if !tls { $0.transport = .plainHTTP } }) { server in
            let token = try await server.token()
            let connection = try await RawConnection.open(port: server.port, caPath: tls ? server.caPath : nil)
            let reply = try await connection.sendAndReadUntilClosed(
                bytes: Self.handshake + Self.frame(0x1, Self.initMessage(token), mask: nil), limit: .seconds(60))
            let text = String(decoding: reply, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 101"), "\(text.prefix(300))")
            #expect(!text.contains("connection_ack"), "\(text.prefix(600))")
            // A close frame from the server (never masked): status 1002.
            #expect(Self.frames(after: reply) == [0x88, 0x02, 0x03, 0xEA], "\(Self.frames(after: reply))")
        }
    }

    @Test("The same messages masked are served: connection_ack, then the close the client asked for")
    func maskedFramesServed() async throws {
        try await withServer { server in
            let token = try await server.token()
            let connection = try await RawConnection.open(port: server.port, caPath: server.caPath)
            let key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
            let reply = try await connection.sendAndReadUntilClosed(
                bytes: Self.handshake + Self.frame(0x1, Self.initMessage(token), mask: key)
                    + Self.frame(0x8, [0x03, 0xE8], mask: key),
                limit: .seconds(60))
            let text = String(decoding: reply, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 101"), "\(text.prefix(300))")
            #expect(text.contains(#""type":"connection_ack""#), "\(text.prefix(600))")
        }
    }
}
