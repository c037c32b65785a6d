import CarnetServer
import Foundation
import HummingbirdWSClient
import Testing

/// Requests built to crash or stall the server (issue 12), sent to a real TLS listener: each gets a coded error
/// quickly, and the server goes on serving on the same connection.
@Suite("Hostile requests")
struct HostileRequestTests {
    static func nested(_ open: String, _ inner: String, _ close: String, _ depth: Int) -> String {
        String(repeating: open, count: depth) + inner + String(repeating: close, count: depth)
    }

    /// A JSON string literal for `text` (the documents here have quotes but no other characters to escape).
    static func quoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\"" }

    static let deepDocuments = [
        "{ " + nested("... on Query { ", "__typename", " }", 3_000) + " }",
        "{ contacts(filter: {ids: " + nested("[", #""a""#, "]", 20_000) + "}) { totalCount } }",
        "{ contacts(filter: {name: " + nested("{name: ", #""a""#, "}", 28) + "}) { totalCount } }",
        "{ contacts { nodes { " + nested("groups { members { nodes: ", "id", " } }", 1_500) + " } } }",
    ]

    @Test(
        "Over HTTP: deep documents, variables and bodies get MAX_NESTING_EXCEEDED at once; the server keeps serving",
        arguments: [false, true])
    func overHTTP(http2: Bool) async throws {
        try await withServer { server in
            let token = try await server.token([.read])
            let headers = [("Content-Type", "application/json"), ("Authorization", "Bearer \(token)")]
            try await TestClient.with(server, http2: http2) { client in
                for document in Self.deepDocuments {
                    let start = ContinuousClock.now
                    let reply = try await client.send(body: #"{"query":\#(Self.quoted(document))}"#, headers: headers)
                    // A hang bound: alone this takes milliseconds; in the whole suite on two loaded cores, 34 s was seen.
                    #expect(ContinuousClock.now - start < .seconds(120))
                    #expect(reply.status == 200)
                    #expect(reply.errorCodes == ["MAX_NESTING_EXCEEDED"], "\(reply.body.prefix(300))")
                }
                // Deep JSON: as variables, and as the body itself (a bad request: 400).
                let deepVariables =
                    #"{"query":"query($v: [ID!]) { contacts(filter: {ids: $v}) { totalCount } }","variables":{"v":"#
                    + Self.nested("[", "1", "]", 200_000) + "}}"
                let deepBody = Self.nested("[", "1", "]", 200_000)
                for body in [deepVariables, deepBody] {
                    let reply = try await client.send(body: body, headers: headers)
                    #expect(reply.status == 400)
                    #expect(reply.errorCodes == ["MAX_NESTING_EXCEEDED"], "\(reply.body.prefix(300))")
                }
                let count = try await client.graphql("{ contacts(first: 1) { totalCount } }", token: token)
                #expect(count.status == 200)
                #expect(count.body == #"{"data":{"contacts":{"totalCount":0}}}"#)
            }
        }
    }

    @Test("Over WebSocket: a deep document gets an error message with MAX_NESTING_EXCEEDED and the socket goes on")
    func overWebSocket() async throws {
        try await withServer { server in
            let token = try await server.token([.read])
            let (events, sink) = AsyncStream<String>.makeStream()
            let document = Self.deepDocuments[0]
            let socket = Task {
                try await WebSocketTestClient.connect(server, token: token) { messages, outbound in
                    try await outbound.writeTextMessage(
                        #"{"type":"subscribe","id":"deep","payload":{"query":\#(Self.quoted(document))}}"#)
                    try await outbound.writeTextMessage(
                        #"{"type":"subscribe","id":"ok","payload":{"query":"{ __typename }"}}"#)
                    while let message = try await messages.next() {
                        if case .text(let text) = message { sink.yield(text) }
                    }
                    sink.finish()
                }
            }
            var received: [String] = []
            // Operations answer in any order (each checks its token in its own task): wait for both.
            for await message in events {
                received.append(message)
                if received.contains(where: { $0.contains(#""type":"complete","id":"ok""#) }),
                    received.contains(where: { $0.contains(#""id":"deep""#) })
                {
                    break
                }
            }
            let deep = received.first(where: { $0.contains(#""id":"deep""#) })
            let refusal = try #require(deep, "\(received)")
            #expect(refusal.contains(#""type":"error""#))
            #expect(refusal.contains("MAX_NESTING_EXCEEDED"))
            #expect(received.contains(#"{"type":"next","id":"ok","payload":{"data":{"__typename":"Query"}}}"#))
            socket.cancel()

            // A message nested too deep closes that socket (4400, as for any message that does not parse); the
            // server goes on serving others.
            let closed = try await WebSocketTestClient.connect(server, token: token) { messages, outbound in
                try await outbound.writeTextMessage(Self.nested("[", "1", "]", 200_000))
                while try await messages.next() != nil {}
            }
            #expect(closed?.closeCode == .unknown(4400))
            let again = try await WebSocketTestClient.connect(server, token: token) { messages, outbound in
                try await outbound.writeTextMessage(#"{"type":"ping"}"#)
                guard case .text(let pong)? = try await messages.next() else { return }
                #expect(pong == #"{"type":"pong"}"#)
            }
            _ = again
        }
    }
}
