import CarnetStore
import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import Synchronization
import Testing

/// Two real `carnet serve` processes on one PostgreSQL database, each with its own data folder (its own development
/// certificate), reached with `carnet query --url` as two clients behind a load balancer would.
@Suite(
    "carnet serve: two processes on PostgreSQL",
    .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
struct PostgresServeTests {
    @Test(
        "A save through one process is read through the other and reaches a wss subscriber of the other; conflicting saves through both: one CONFLICT"
    )
    func twoProcesses() async throws {
        try await PostgresTestDatabase.with { location in
            let carnet = try ChildProcess.carnetExecutable()
            let base = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-pg-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: base) }
            let (dataA, dataB) = (base.appendingPathComponent("a").path, base.appendingPathComponent("b").path)
            let database = location.testURL
            let first = try ChildProcess(
                carnet,
                ["serve", "--data", dataA, "--database", database, "--port", "0", "--websocket-init-timeout", "120"])
            let urlA = try #require(
                try await first.line(containing: "is listening on").split(separator: " ").last.map(String.init))
            // The first start of the database prints the admin token; the second process finds one and prints none.
            let token = try #require(
                first.stdout.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("carnet_") }.map(String.init))
            let second = try ChildProcess(
                carnet,
                ["serve", "--data", dataB, "--database", database, "--port", "0", "--websocket-init-timeout", "120"])
            let urlB = try #require(
                try await second.line(containing: "is listening on").split(separator: " ").last.map(String.init))
            #expect(!second.stdout.contains("carnet_"))
            func query(_ data: String, _ url: String, _ document: String) async throws -> String {
                let result = try await ChildProcess.run(
                    carnet, ["query", "--data", data, "--url", url, "--token", token, document])
                return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let saved = try await query(
                dataA, urlA,
                #"mutation { save(request: {operations: [{addContact: {givenName: "Anna"}}]}) { revision contacts { id } } }"#
            )
            let json = try #require(try JSONSerialization.jsonObject(with: Data(saved.utf8)) as? [String: Any])
            let save = (json["data"] as? [String: Any])?["save"] as? [String: Any]
            let id = try #require((save?["contacts"] as? [[String: Any]])?.first?["id"] as? String)
            let revision = try #require(save?["revision"] as? String)
            #expect(
                try await query(dataB, urlB, #"{ contact(id: "\#(id)") { givenName } }"#)
                    == #"{"data":{"contact":{"givenName":"Anna"}}}"#)
            try await subscriberOnB(
                dataA: dataA, urlA: urlA, dataB: dataB, urlB: urlB, token: token, query: query,
                serverLog: { second.stderr })
            func update(_ data: String, _ url: String, _ name: String) async throws -> String {
                try await query(
                    data, url,
                    #"mutation { save(request: {operations: [{updateContact: {id: "\#(id)", baseRevision: "\#(revision)", givenName: "\#(name)"}}]}) { revision } }"#
                )
            }
            async let throughA = update(dataA, urlA, "Annie")
            async let throughB = update(dataB, urlB, "Ann")
            let outcomes = try await [throughA, throughB]
            #expect(outcomes.filter { $0.contains("CONFLICT") }.count == 1, "\(outcomes)")
            #expect(outcomes.filter { $0.contains(#""revision":""#) }.count == 1, "\(outcomes)")
            for server in [first, second] {
                kill(server.process.processIdentifier, SIGTERM)
                #expect(try await server.wait(timeout: .seconds(30)) == 0)
            }
        }
    }

    /// A graphql-transport-ws subscriber of process B hears of a save made through process A: B learns of A's
    /// commit from the database (a NOTIFY wake-up), as one server behind a load balancer must of another's.
    private func subscriberOnB(
        dataA: String, urlA: String, dataB: String, urlB: String, token: String,
        query: (String, String, String) async throws -> String, serverLog: () -> String
    ) async throws {
        let port = try #require(URLComponents(string: urlB)?.port)
        let caPath = dataB + "/tls/ca.pem"
        let (messages, sink) = AsyncStream<String>.makeStream()
        let ended = Mutex<String?>(nil)
        let subscribed = Mutex(false)
        let socket = Task {
            // A socket that ends, or a hang bound that passes, ends the stream: a wait below then fails, not hangs.
            defer { sink.finish() }
            // A connection that fails before the subscription is acknowledged (a loaded machine can be slow to
            // finish the TLS handshake) is made again, as a client does: no event can be lost before the pong.
            for attempt in 1...3 {
                do {
                    try await connect()
                    ended.withLock { $0 = "ended" }
                    return
                } catch {
                    ended.withLock { $0 = "failed (attempt \(attempt)): \(error)" }
                    if subscribed.withLock({ $0 }) { return }
                }
            }
        }
        @Sendable func connect() async throws {
            try await WebSocketTestClient.connect(port: port, caPath: caPath, token: token) { inbound, outbound in
                try await outbound.writeTextMessage(
                    #"{"type":"subscribe","id":"s1","payload":{"query":"subscription { storeDidChange { authors } }"}}"#
                )
                // The subscription exists once a ping sent after it is answered (messages are handled in order).
                try await outbound.writeTextMessage(#"{"type":"ping"}"#)
                while let message = try await inbound.next() {
                    guard case .text(let text) = message else { continue }
                    subscribed.withLock { $0 = true }
                    sink.yield(text)
                }
            }
        }
        let bound = Task {
            try await Task.sleep(for: .seconds(120))
            sink.finish()
        }
        defer {
            socket.cancel()
            bound.cancel()
        }
        var iterator = messages.makeAsyncIterator()
        let pong = await iterator.next()
        // The session reads the ping only once the subscription listens, so the pong proves it does.
        #expect(
            pong == #"{"type":"pong"}"#, "the socket \(ended.withLock { $0 } ?? "is open"); B's log:\n\(serverLog())")
        let saved = try await query(
            dataA, urlA,
            #"mutation { save(request: {transactionAuthor: "through-a", operations: [{addContact: {givenName: "Bea"}}]}) { revision } }"#
        )
        #expect(saved.contains(#""revision""#), "\(saved)")
        let event = await iterator.next()
        if event == nil {
            Issue.record("no event; the socket \(ended.withLock { $0 } ?? "is open"); B's log:\n\(serverLog())")
        }
        #expect(event == #"{"type":"next","id":"s1","payload":{"data":{"storeDidChange":{"authors":["through-a"]}}}}"#)
    }
}
