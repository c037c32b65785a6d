import CarnetServer
import Foundation
import HummingbirdWSClient
import Synchronization
import Testing

/// Every subscription costs a payload per commit of its book: an outside tester's 10,000 subscriptions of one
/// principal, over many sockets and tokens, made each small save cost the server seconds.
@Suite("Subscriptions per principal")
struct SubscriptionQuotaTests {
    static func subscribe(_ id: String) -> String {
        #"{"type":"subscribe","id":"\#(id)","payload":{"query":"subscription { storeDidChange { historyToken } }"}}"#
    }

    /// Sends `messages` then a ping on a new socket, and returns what came back until the pong and a `complete` or
    /// `error` for each of `finishing`; the socket then closes, ending its subscriptions.
    static func exchange(_ server: TestServer, token: String, _ messages: [String], finishing: Set<String> = [])
        async throws -> [String]
    {
        let received = Mutex<[String]>([])
        _ = try await WebSocketTestClient.connect(server, token: token) { inbound, outbound in
            for message in messages { try await outbound.writeTextMessage(message) }
            try await outbound.writeTextMessage(#"{"type":"ping"}"#)
            var (ponged, open) = (false, finishing)
            while !ponged || !open.isEmpty, let message = try await inbound.next() {
                guard case .text(let text) = message else { continue }
                received.withLock { $0.append(text) }
                if text.contains(#""type":"pong""#) { ponged = true }
                if text.contains(#""type":"complete""#) || text.contains(#""type":"error""#) {
                    open = open.filter { !text.contains(#""id":"\#($0)""#) }
                }
            }
        }
        return received.withLock { $0 }
    }

    @Test("At most maxSubscriptionsPerPrincipal across sockets and tokens; queries and other principals pass")
    func principalQuota() async throws {
        try await withServer({ $0.maxSubscriptionsPerPrincipal = 2 }) { server in
            let first = try await server.token([.read], name: "one")
            let second = try await server.token([.read], name: "two")
            let bob = try await server.token(
                for: try await server.app.backend.catalog.createPrincipal(name: "bob"), [.read])
            let (held, heldSink) = AsyncStream<String>.makeStream()
            let (release, releaseSink) = AsyncStream<Void>.makeStream()
            let holder = Task {
                try await WebSocketTestClient.connect(server, token: first) { inbound, outbound in
                    for id in ["a", "b"] { try await outbound.writeTextMessage(Self.subscribe(id)) }
                    try await outbound.writeTextMessage(#"{"type":"ping"}"#)
                    while let message = try await inbound.next() {
                        guard case .text(let text) = message else { continue }
                        heldSink.yield(text)
                        if text.contains(#""type":"pong""#) { break }
                    }
                    for await _ in release { break }
                    try await outbound.writeTextMessage(#"{"type":"complete","id":"a"}"#)
                    while try await inbound.next() != nil {}
                }
            }
            defer { holder.cancel() }
            var first2: [String] = []
            for await message in held {
                first2.append(message)
                if message.contains(#""type":"pong""#) { break }
            }
            #expect(!first2.contains { $0.contains(#""type":"error""#) }, "\(first2)")

            let query = #"{"type":"subscribe","id":"q","payload":{"query":"{ __typename }"}}"#
            let refused = try await Self.exchange(
                server, token: second, [Self.subscribe("c"), query], finishing: ["c", "q"])
            let error = try #require(refused.first { $0.contains(#""type":"error""#) }, "\(refused)")
            #expect(error.contains(#""id":"c""#) && error.contains("MAX_OPERATIONS_EXCEEDED"), "\(error)")
            #expect(error.contains(#""maxSubscriptionsPerPrincipal":2"#), "\(error)")
            #expect(refused.contains { $0.contains(#""id":"q""#) && $0.contains(#""type":"next""#) }, "\(refused)")

            let other = try await Self.exchange(server, token: bob, [Self.subscribe("x")])
            #expect(!other.contains { $0.contains(#""type":"error""#) }, "another principal: \(other)")

            // A completed subscription gives its place back once its task has ended: asked again until then.
            releaseSink.yield()
            var admitted = false
            for attempt in 0..<1_200 where !admitted {
                let answer = try await Self.exchange(server, token: second, [Self.subscribe("d\(attempt)")])
                admitted = !answer.contains { $0.contains(#""type":"error""#) }
                if !admitted { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(admitted)
        }
    }
}
