import CarnetServer
import CarnetStore
import CarnetStoreSQLite
import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import NIOSSL
import NIOWebSocket
import Synchronization
import Testing

@Suite("Subscriptions over WebSocket")
struct WebSocketTests {
    @Test("storeDidChange reaches a wss subscriber for a save made through another connection to the database file")
    func changesFromAnotherStore() async throws {
        try await withServer { server in
            let token = try await server.token([.read])
            let (events, sink) = AsyncStream<String>.makeStream()
            let socket = Task {
                try await WebSocketTestClient.connect(server, token: token) { messages, outbound in
                    try await outbound.writeTextMessage(
                        #"{"type":"subscribe","id":"s1","payload":{"query":"subscription { storeDidChange(excludedAuthors: [\"other\"]) { authors } }"}}"#
                    )
                    // The subscription exists once a ping sent after it is answered (messages are handled in order).
                    try await outbound.writeTextMessage(#"{"type":"ping"}"#)
                    while let message = try await messages.next() {
                        guard case .text(let text) = message else { continue }
                        sink.yield(text)
                    }
                }
            }
            var iterator = events.makeAsyncIterator()
            #expect(await iterator.next() == #"{"type":"pong"}"#)
            // Another process would open its own connection to the file; so does this second store.
            let other = try SQLiteStore.open(
                path: (server.app.configuration.dataDirectory as NSString).appendingPathComponent(
                    DataFolder.adminBookFileName))
            var skipped = SaveRequest(transactionAuthor: "other")
            skipped.add(contact("Skipped"))
            _ = try await other.execute(skipped)
            // Let the server's poll see the excluded commit on its own before the next one.
            try await Task.sleep(for: .seconds(1.5))
            var seen = SaveRequest(transactionAuthor: "cli-import")
            seen.add(contact("Seen"))
            _ = try await other.execute(seen)
            let next = await iterator.next()
            #expect(
                next == #"{"type":"next","id":"s1","payload":{"data":{"storeDidChange":{"authors":["cli-import"]}}}}"#)
            try await other.close()
            socket.cancel()
        }
    }

    @Test("A subscription listens before the socket's next message is read: a save sent right after it reaches it")
    func subscriptionListensBeforeNextMessage() async throws {
        try await withServer { server in
            let token = try await server.token()
            let rounds = 40
            // Each round yields nil once heard, or what came instead.
            let (heard, sink) = AsyncStream<String?>.makeStream()
            let socket = Task {
                try await WebSocketTestClient.connect(server, token: token) { messages, outbound in
                    for round in 0..<rounds {
                        // No wait between the two: the save's commit must reach the subscription sent before it.
                        try await outbound.writeTextMessage(
                            #"{"type":"subscribe","id":"s\#(round)","payload":{"query":"subscription { storeDidChange { authors } }"}}"#
                        )
                        try await outbound.writeTextMessage(
                            #"{"type":"subscribe","id":"m\#(round)","payload":{"query":"mutation { save(request: {transactionAuthor: \"round-\#(round)\", operations: [{addContact: {givenName: \"Anna\"}}]}) { revision } }"}}"#
                        )
                        var found = false
                        while !found, let message = try await messages.next() {
                            guard case .text(let text) = message else { continue }
                            if text.contains(#""id":"m\#(round)""#), text.contains("error") {
                                sink.yield("round \(round)'s save failed: \(text)")
                            }
                            guard text.contains(#""id":"s\#(round)""#) else { continue }
                            if !text.contains(#""type":"next""#) {
                                sink.yield("round \(round)'s subscription ended: \(text)")
                                break
                            }
                            found = text.contains(#""round-\#(round)""#)
                        }
                        guard found else { break }
                        sink.yield(nil)
                        try await outbound.writeTextMessage(#"{"type":"complete","id":"s\#(round)"}"#)
                    }
                    sink.finish()
                }
            }
            // Only a failure waits this long: a round that makes no progress for three minutes (a round takes
            // milliseconds, seconds on a loaded machine, and the whole suite once stood still for over a minute)
            // never hears its save.
            let progress = Mutex(0)
            let bound = Task {
                var seen = -1
                while progress.withLock({ $0 }) != seen {
                    seen = progress.withLock { $0 }
                    try await Task.sleep(for: .seconds(180))
                }
                sink.finish()
            }
            defer {
                socket.cancel()
                bound.cancel()
            }
            var heardCount = 0
            for await outcome in heard {
                if let outcome { Issue.record(Comment(rawValue: outcome)) } else { heardCount += 1 }
                progress.withLock { $0 += 1 }
            }
            #expect(heardCount == rounds, "round \(heardCount)'s subscription missed the save sent after it")
            // Every payload that followed a commit was timed from the commit to its write on the socket.
            let metrics = try await TestClient.with(server) { try await $0.send(.GET, path: "/metrics") }.body
            let count = metrics.split(separator: "\n").first {
                $0.hasPrefix("carnet_subscription_delivery_seconds_count ")
            }
            #expect(count.flatMap { $0.split(separator: " ").last.flatMap { Int($0) } }.map { $0 >= rounds } == true)
            #expect(metrics.contains(#"carnet_subscription_delivery_seconds_bucket{le="0.01"}"#))
        }
    }

    @Test("Operations over a socket count against the token's rate limit: over it, an error message with RATE_LIMITED")
    func rateLimited() async throws {
        try await withServer({
            $0.rateLimitPerSecond = 0.01
            $0.rateLimitBurst = 2
        }) { server in
            let token = try await server.token([.read])
            let (events, sink) = AsyncStream<String>.makeStream()
            let socket = Task {
                try await WebSocketTestClient.connect(server, token: token) { messages, outbound in
                    for id in ["a", "b", "c"] {
                        try await outbound.writeTextMessage(
                            #"{"type":"subscribe","id":"\#(id)","payload":{"query":"{ __typename }"}}"#)
                    }
                    while let message = try await messages.next() {
                        if case .text(let text) = message { sink.yield(text) }
                    }
                }
            }
            var received: [String] = []
            for await message in events {
                received.append(message)
                if received.count == 5 { break }
            }
            socket.cancel()
            #expect(received.filter { $0.contains(#""type":"complete""#) }.count == 2)
            let limited = try #require(received.first { $0.contains(#""type":"error""#) })
            #expect(limited.contains(#""id":"c""#))
            #expect(limited.contains("RATE_LIMITED"))
        }
    }

    @Test(
        "A socket runs at most maxOperationsPerSocket operations: one more gets MAX_OPERATIONS_EXCEEDED, a completed one frees its place"
    )
    func operationCap() async throws {
        try await withServer({ $0.maxOperationsPerSocket = 2 }) { server in
            let token = try await server.token([.read])
            let (events, sink) = AsyncStream<String>.makeStream()
            let subscription = #"{"query":"subscription { storeDidChange { historyToken } }"}"#
            let socket = Task {
                try await WebSocketTestClient.connect(server, token: token) { messages, outbound in
                    // The loop handles messages in order, so each answer below follows from the ones before.
                    for id in ["a", "b", "c"] {
                        try await outbound.writeTextMessage(
                            #"{"type":"subscribe","id":"\#(id)","payload":\#(subscription)}"#)
                    }
                    try await outbound.writeTextMessage(#"{"type":"complete","id":"a"}"#)
                    try await outbound.writeTextMessage(#"{"type":"subscribe","id":"d","payload":\#(subscription)}"#)
                    try await outbound.writeTextMessage(#"{"type":"subscribe","id":"e","payload":\#(subscription)}"#)
                    try await outbound.writeTextMessage(#"{"type":"ping"}"#)
                    while let message = try await messages.next() {
                        if case .text(let text) = message { sink.yield(text) }
                    }
                    sink.finish()
                }
            }
            defer { socket.cancel() }
            var errors: [String] = []
            for await message in events {
                if message.contains(#""type":"error""#) { errors.append(message) }
                if message.contains(#""type":"pong""#) { break }
            }
            #expect(errors.count == 2, "\(errors)")
            #expect(errors.contains { $0.contains(#""id":"c""#) && $0.contains("MAX_OPERATIONS_EXCEEDED") })
            #expect(errors.contains { $0.contains(#""id":"e""#) && $0.contains("MAX_OPERATIONS_EXCEEDED") })
            #expect(!errors.contains { $0.contains(#""id":"d""#) }, "the completed subscription's place went to d")
        }
    }

    @Test("A text message that is not UTF-8 fails the socket with 1007, as RFC 6455 requires")
    func invalidUTF8() async throws {
        try await withServer { server in
            let token = try await server.token()
            let close = try await WebSocketTestClient.connect(server, token: token) { messages, outbound in
                // A ping whose id holds an overlong encoding of "/" (0xC0 0xAF): never valid UTF-8.
                var bytes = ByteBuffer(string: #"{"type":"subscribe","id":""#)
                bytes.writeBytes([0xC0, 0xAF])
                bytes.writeString(#"","payload":{"query":"{ __typename }"}}"#)
                try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .text, data: bytes)))
                if let message = try await messages.next() {
                    Issue.record("a message that is not UTF-8 was answered: \(message)")
                }
            }
            #expect(close?.closeCode == .dataInconsistentWithMessage, "\(String(describing: close))")
        }
    }

    @Test("Graceful shutdown ends subscriptions and closes the socket with 1001 (going away)")
    func gracefulShutdown() async throws {
        let server = try await TestServer.start()
        let token = try await server.token()
        let (events, sink) = AsyncStream<String>.makeStream()
        let socket = Task {
            try await WebSocketTestClient.connect(server, token: token) { messages, outbound in
                try await outbound.writeTextMessage(
                    #"{"type":"subscribe","id":"live","payload":{"query":"subscription { storeDidChange { historyToken } }"}}"#
                )
                try await outbound.writeTextMessage(#"{"type":"ping"}"#)
                while let message = try await messages.next() {
                    if case .text(let text) = message { sink.yield(text) }
                }
                sink.finish()
            }
        }
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == #"{"type":"pong"}"#)
        try await server.stop()
        let close = try await socket.value
        #expect(close?.closeCode == .goingAway)
    }
}

/// A graphql-transport-ws client over wss that trusts the test server's CA and authenticates in connection_init.
enum WebSocketTestClient {
    static func connect(
        _ server: TestServer, token: String,
        _ body:
            @escaping @Sendable (inout WebSocketInboundMessageStream.AsyncIterator, WebSocketOutboundWriter)
            async throws
            -> Void
    ) async throws -> WebSocketCloseFrame? {
        try await connect(port: server.port, caPath: server.caPath, token: token, body)
    }

    /// The same for any server on loopback: a `carnet serve` process, whose CA is in its data folder.
    static func connect(
        port: Int, caPath: String, token: String,
        _ body:
            @escaping @Sendable (inout WebSocketInboundMessageStream.AsyncIterator, WebSocketOutboundWriter)
            async throws
            -> Void
    ) async throws -> WebSocketCloseFrame? {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(caPath)
        var configuration = WebSocketClientConfiguration()
        configuration.additionalHeaders = [.secWebSocketProtocol: "graphql-transport-ws"]
        var logger = Logger(label: "ws-test")
        logger.logLevel = .warning
        return try await WebSocketClient.connect(
            url: "wss://localhost:\(port)/graphql", configuration: configuration,
            tlsConfiguration: tls, logger: logger
        ) { inbound, outbound, _ in
            try await outbound.writeTextMessage(
                #"{"type":"connection_init","payload":{"authorization":"Bearer \#(token)"}}"#)
            var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            let first = try await messages.next()
            guard case .text(let ack)? = first, ack == #"{"type":"connection_ack"}"# else {
                throw WebSocketTestError.noAck(first.map { "\($0)" } ?? "the socket closed")
            }
            try await body(&messages, outbound)
        }
    }
}

enum WebSocketTestError: Error {
    /// What came instead of `connection_ack`.
    case noAck(String)
}

func contact(_ givenName: String) -> Contact {
    var contact = Contact()
    contact.givenName = givenName
    return contact
}
