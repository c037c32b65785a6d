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
            // The holder reads all along: a client that stops reading stops answering the server's pings, and the
            // server closes its socket (under a loaded suite's delays this one went unanswered for a minute).
            let holder = Task {
                defer { heldSink.finish() }
                try await WebSocketTestClient.connect(server, token: first) { inbound, outbound in
                    for id in ["a", "b"] { try await outbound.writeTextMessage(Self.subscribe(id)) }
                    try await outbound.writeTextMessage(#"{"type":"ping"}"#)
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await _ in release { break }
                            // The socket handles its messages in order: the pong says the completion was handled.
                            try await outbound.writeTextMessage(#"{"type":"complete","id":"a"}"#)
                            try await outbound.writeTextMessage(#"{"type":"ping"}"#)
                        }
                        while let message = try await inbound.next() {
                            guard case .text(let text) = message else { continue }
                            heldSink.yield(text)
                        }
                        group.cancelAll()
                    }
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

            // A completed subscription gives its place back as soon as the completion is handled (polling for its
            // task's end instead made a loop of new sockets that held both cores of a loaded machine for minutes).
            releaseSink.yield()
            for await message in held where message.contains(#""type":"pong""#) { break }
            // Admitted: it gets the next commit's payload (a refusal would be its error instead).
            let writer = try await server.token()
            let answer = Mutex<String?>(nil)
            let close = try await WebSocketTestClient.connect(server, token: second) { inbound, outbound in
                try await outbound.writeTextMessage(Self.subscribe("d"))
                try await outbound.writeTextMessage(#"{"type":"ping"}"#)
                // The save runs beside the reading: a socket not read while a loaded machine saved missed the
                // server's pings and was closed before the payload came.
                var save: Task<Void, any Error>?
                defer { save?.cancel() }
                while let message = try await inbound.next() {
                    guard case .text(let text) = message else { continue }
                    if text.contains(#""type":"pong""#) {
                        save = Task {
                            try await TestClient.with(server) { client in
                                let saved = try await client.graphql(
                                    #"mutation { save(request: {operations: [{addContact: {givenName: "D"}}]}) { revision } }"#,
                                    token: writer)
                                #expect(saved.status == 200, "\(saved.body)")
                            }
                        }
                    } else if text.contains(#""id":"d""#) {
                        answer.withLock { $0 = text }
                        break
                    }
                }
                try await save?.value
            }
            let text = try #require(answer.withLock { $0 }, "closed with \(String(describing: close))")
            #expect(text.contains(#""type":"next""#) && text.contains("historyToken"), "\(text)")
        }
    }
}
