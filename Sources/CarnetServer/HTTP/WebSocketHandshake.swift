import Foundation
import NIOHTTP1

/// The checks RFC 6455 (4.2.1) makes of a WebSocket opening handshake before any upgrade is considered. NIO's
/// upgrader closes the connection without a word on a handshake it cannot complete; a client deserves the status
/// the RFC names instead.
enum WebSocketHandshake {
    /// The refusal for a GET that asks for a WebSocket with a handshake no server can complete, or nil when the
    /// request asks for no WebSocket or its handshake is sound (whether to upgrade is decided later, by path).
    static func refusal(for head: HTTPRequestHead) -> HTTPErrorResponse? {
        guard isWebSocketRequest(head) else { return nil }
        // Without it, the server would switch protocols on a request that did not ask to (§4.2.1, item 4).
        guard connectionAsksForUpgrade(head.headers) else {
            return HTTPErrorResponse(
                status: .badRequest, code: .badRequest, message: "A WebSocket handshake needs Connection: Upgrade.")
        }
        // A body would be read as frames after the 101: the socket was answered and then heard nothing more, outside
        // every WebSocket limit (an outside tester's find).
        if head.headers["transfer-encoding"].isEmpty == false
            || head.headers["content-length"].contains(where: { $0.trimmingCharacters(in: .whitespaces) != "0" })
        {
            return HTTPErrorResponse(
                status: .badRequest, code: .badRequest, message: "A WebSocket handshake has no body.")
        }
        let versions = head.headers["sec-websocket-version"]
        guard versions.count == 1, versions[0].trimmingCharacters(in: .whitespaces) == "13" else {
            return HTTPErrorResponse(
                status: .upgradeRequired, code: .upgradeRequired,
                message: "This server speaks WebSocket version 13 only.",
                headers: [.secWebSocketVersion: "13"])
        }
        let keys = head.headers["sec-websocket-key"]
        guard keys.count == 1, isNonce(keys[0]) else {
            return HTTPErrorResponse(
                status: .badRequest, code: .badRequest,
                message: "A WebSocket handshake needs one Sec-WebSocket-Key: 16 bytes in base64.")
        }
        return nil
    }

    /// A GET of HTTP/1.1 or later that asks for a WebSocket. HTTP/1.0 has no Upgrade (RFC 9110 7.8: ignored there).
    static func isWebSocketRequest(_ head: HTTPRequestHead) -> Bool {
        head.method == .GET && (head.version.major, head.version.minor) >= (1, 1) && asksForWebSocket(head.headers)
    }

    static func connectionAsksForUpgrade(_ headers: HTTPHeaders) -> Bool {
        headers[canonicalForm: "connection"].contains { $0.lowercased() == "upgrade" }
    }

    static func asksForWebSocket(_ headers: HTTPHeaders) -> Bool {
        headers[canonicalForm: "upgrade"].contains { $0.lowercased() == "websocket" }
    }

    private static func isNonce(_ key: String) -> Bool {
        let key = key.trimmingCharacters(in: .whitespaces)
        return key.utf8.count == 24 && Data(base64Encoded: key)?.count == 16
    }
}
