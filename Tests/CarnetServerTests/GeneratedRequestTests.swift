import AsyncHTTPClient
import CarnetServer
import CarnetTestSupport
import Foundation
import HummingbirdWSClient
import NIOCore
import Testing

/// Issue 12, point 7, over a live TLS server: generated and broken requests over HTTP/1.1, HTTP/2 and
/// WebSocket get no 5xx, no dropped connection and a coded error whenever they fail.
@Suite("Generated requests")
struct GeneratedRequestTests {
    static var seed: UInt64 { SeededRandom.seed(from: "CARNET_GENERATED_INPUT_SEED") }

    static let documents = [
        "{ contacts(first: 3) { nodes { id givenName groups { name } } pageInfo { endCursor } } }",
        "query($n: Int) { contacts(first: $n) { totalCount } }",
        "{ __schema { types { name } } }",
        "{ contacts(filter: {name: \\\"\\\\u{1F600}\\\"}) { totalCount } }",
        "{ " + String(repeating: "... on Query { ", count: 300) + "__typename" + String(repeating: " }", count: 300)
            + " }",
        "{ contacts(filter: {ids: " + String(repeating: "[", count: 300) + "\\\"a\\\""
            + String(repeating: "]", count: 300) + "}) { totalCount } }",
        "{ contacts(first: 2147483648) { totalCount } }",
        "{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }",
        "{ contacts(before: \\\"x\\\") { totalCount } }",
        "{ contacts { nodes { id ",
    ]

    static func body(_ random: inout SeededRandom) -> [UInt8] {
        let document = documents[random.below(documents.count)]
        let variables = [#"{"n":5}"#, #"{"n":"five"}"#, #"{"n":99999999999}"#, "null", "[1]", #"{"n":5,"n":6}"#][
            random.below(6)]
        var body = Array(#"{"query":"\#(document)","variables":\#(variables)}"#.utf8)
        switch random.below(6) {
        case 0: body = Array("[".utf8) + body + Array(",".utf8) + body + Array("]".utf8)
        case 1: body.insert(0xFF, at: random.below(body.count))
        case 2: body = Array(body.prefix(random.below(body.count)))
        case 3: body = Array(String(repeating: "[", count: 1_000 + random.below(100_000)).utf8)
        default: break
        }
        return body
    }

    /// Sends the bytes as they are (invalid UTF-8 included).
    static func send(_ body: [UInt8], _ headers: [(String, String)], _ client: TestClient) async throws
        -> TestClient.Reply
    {
        var request = HTTPClientRequest(url: client.baseURL + "/graphql")
        request.method = .POST
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        // A hang bound: in a whole suite's first minutes a request once waited past 30 s (CI).
        let response = try await client.client.execute(request, timeout: .seconds(120))
        let bytes = try await response.body.collect(upTo: 16 << 20)
        return TestClient.Reply(
            status: response.status.code, headers: response.headers, body: String(buffer: bytes),
            version: response.version)
    }

    @Test("Over HTTP/1.1 and HTTP/2: no 5xx, no dropped connection, a code on every error", arguments: [false, true])
    func overHTTP(http2: Bool) async throws {
        let seed = Self.seed
        print("Generated requests: seed \(seed)")
        var random = SeededRandom(seed: seed)
        try await withServer { server in
            let token = try await server.token([.read])
            let headers = [("Content-Type", "application/json"), ("Authorization", "Bearer \(token)")]
            try await TestClient.with(server, http2: http2) { client in
                for index in 0..<150 {
                    let body = Self.body(&random)
                    let reply = try await Self.send(body, headers, client)
                    let context = "seed \(seed), request \(index): \(String(decoding: body.prefix(300), as: UTF8.self))"
                    #expect(reply.status < 500, "\(context)")
                    let errors = reply.json["errors"] as? [[String: Any]] ?? []
                    #expect(
                        errors.count == reply.errorCodes.count,
                        "every error has a code: \(reply.body.prefix(500))\n\(context)")
                    #expect(!reply.errorCodes.contains("INTERNAL_SERVER_ERROR"), "\(context)")
                }
                let count = try await client.graphql("{ contacts(first: 1) { totalCount } }", token: token)
                #expect(count.body == #"{"data":{"contacts":{"totalCount":0}}}"#)
            }
        }
    }

    @Test("Over WebSocket: every generated operation gets its answer, with codes, and the socket stays open")
    func overWebSocket() async throws {
        let seed = Self.seed
        var random = SeededRandom(seed: seed)
        try await withServer { server in
            let token = try await server.token([.read])
            let (events, sink) = AsyncStream<String>.makeStream()
            let count = 60
            let messages = (0..<count).map { index in
                #"{"type":"subscribe","id":"op\#(index)","payload":{"query":"\#(Self.documents[random.below(Self.documents.count)])"}}"#
            }
            let socket = Task {
                try await WebSocketTestClient.connect(server, token: token) { inbound, outbound in
                    for message in messages { try await outbound.writeTextMessage(message) }
                    try await outbound.writeTextMessage(#"{"type":"ping"}"#)
                    while let message = try await inbound.next() {
                        if case .text(let text) = message { sink.yield(text) }
                    }
                    sink.finish()
                }
            }
            var finished = Set<String>()
            var pong = false
            for await message in events {
                let json = (try? JSONSerialization.jsonObject(with: Data(message.utf8))) as? [String: Any] ?? [:]
                if json["type"] as? String == "pong" { pong = true }
                if let id = json["id"] as? String, ["error", "complete"].contains(json["type"] as? String) {
                    finished.insert(id)
                }
                if json["type"] as? String == "error" {
                    let errors = json["payload"] as? [[String: Any]] ?? []
                    #expect(
                        errors.allSatisfy { ($0["extensions"] as? [String: Any])?["code"] is String },
                        "seed \(seed): \(message.prefix(500))")
                }
                if finished.count == count && pong { break }
            }
            socket.cancel()
            #expect(finished.count == count, "seed \(seed)")
            #expect(pong)
        }
    }
}
