import AsyncHTTPClient
import CarnetStore
import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import Logging
import NIOCore
import NIOSSL
import PostgresNIO
import Synchronization
import Testing

@testable import CarnetStorePostgres

/// A `carnet serve` whose database stops taking connections (`ALLOW_CONNECTIONS false`, its sessions ended): requests
/// get UNAVAILABLE within the connect timeout, where they waited for the pool's reconnection backoff (about a minute)
/// and a token not seen before got a bare 500; an open subscription is not ended as if its access had been withdrawn
/// (FORBIDDEN), and delivers what is saved once the database is back. Outside testers' finds.
@Suite(
    "carnet serve on PostgreSQL: the database unreachable",
    .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
struct PostgresOutageServeTests {
    @Test("Requests get UNAVAILABLE (503 for an unchecked token) and a subscription lives through the outage")
    func outage() async throws {
        try await PostgresTestDatabase.with { location in
            let carnet = try ChildProcess.carnetExecutable()
            let data = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-pg-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: data) }
            // The lease's bound is the connect timeout.
            let url = location.description + "&connect_timeout=5"
            let server = try ChildProcess(
                carnet,
                ["serve", "--data", data.path, "--database", url, "--port", "0", "--websocket-init-timeout", "120"])
            let address = try #require(
                try await server.line(containing: "is listening on").split(separator: " ").last.map(String.init))
            let port = try #require(URLComponents(string: address)?.port)
            let token = try #require(
                server.stdout.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("carnet_") }.map(String.init))
            // A token the server has never checked: made by another process.
            let made = try await ChildProcess.run(
                carnet,
                ["token", "create", "--name", "late", "--scope", "read", "--data", data.path, "--database", url])
            let late = try #require(
                made.stdout.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("carnet_") }.map(String.init))
            let caPath = data.path + "/tls/ca.pem"
            let (messages, tasks) = Self.subscribe(port: port, caPath: caPath, token: token)
            defer { for task in tasks { task.cancel() } }
            var subscriber = messages.makeAsyncIterator()
            #expect(await subscriber.next() == #"{"type":"pong"}"#)

            var admin = location
            admin.database = "postgres"
            let database = try await PostgresDatabase.connect(admin, logger: Logger(label: "carnet.tests.outage"))
            let name = location.database
            func allowConnections(_ allowed: Bool) async throws {
                _ = try await database.read { connection in
                    try await connection.rows(
                        PostgresQuery(
                            unsafeSQL: #"ALTER DATABASE "\#(name)" ALLOW_CONNECTIONS \#(allowed ? "true" : "false")"#),
                        logger: database.logger)
                    if !allowed {
                        try await connection.rows(
                            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = \(name)",
                            logger: database.logger)
                    }
                }
            }
            try await allowConnections(false)
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .file(caPath)
            do {
                try await withHTTPClient(.init(tlsConfiguration: tls)) { client in
                    try await Self.requests(
                        GraphQLPoster(client: client), address: address, token: token, late: late,
                        subscriber: &subscriber,
                        backOnline: {
                            try await allowConnections(true)
                            await database.close()
                        })
                }
            } catch {
                try? await allowConnections(true)
                throw error
            }
            kill(server.process.processIdentifier, SIGTERM)
            #expect(try await server.wait(timeout: .seconds(30)) == 0)
        }
    }

    /// The requests while the database is unreachable, then once it is `backOnline`.
    static func requests(
        _ client: GraphQLPoster, address: String, token: String, late: String,
        subscriber: inout AsyncStream<String>.AsyncIterator, backOnline: () async throws -> Void
    ) async throws {
        let unchecked = try await client.post(address, token: late, "{ viewer { name } }")
        let known = try await client.post(address, token: token, "{ contacts(first: 1) { totalCount } }")
        try await backOnline()
        #expect(unchecked.status == 503 && unchecked.body.contains("UNAVAILABLE"), "\(unchecked)")
        #expect(unchecked.retryAfter != nil)
        #expect(known.body.contains("UNAVAILABLE"), "\(known)")

        // Back: the subscription, which lived through the failed access checks, hears of the next save.
        var saved = false
        for _ in 0..<60 where !saved {
            let reply = try await client.post(
                address, token: token,
                #"mutation { save(request: {transactionAuthor: "after", operations: [{addContact: {givenName: "Bea"}}]}) { revision } }"#
            )
            saved = reply.body.contains(#""revision""#)
            if !saved { try await Task.sleep(for: .seconds(1)) }
        }
        #expect(saved)
        var event: String?
        repeat {
            event = await subscriber.next()
        } while event?.contains(#""authors":["after"]"#) == false
            && event?.contains("error") == false
        #expect(event == #"{"type":"next","id":"s1","payload":{"data":{"storeDidChange":{"authors":["after"]}}}}"#)
    }

    /// A `storeDidChange` subscriber over wss: its messages as they come, ending with the socket or after 120 s,
    /// and the tasks to cancel.
    static func subscribe(port: Int, caPath: String, token: String) -> (AsyncStream<String>, [Task<Void, Never>]) {
        let (stream, sink) = AsyncStream<String>.makeStream()
        let socket = Task {
            defer { sink.finish() }
            _ = try? await WebSocketTestClient.connect(port: port, caPath: caPath, token: token) { inbound, outbound in
                try await outbound.writeTextMessage(
                    #"{"type":"subscribe","id":"s1","payload":{"query":"subscription { storeDidChange { authors } }"}}"#
                )
                // The subscription listens once a ping sent after it is answered.
                try await outbound.writeTextMessage(#"{"type":"ping"}"#)
                while let message = try await inbound.next() {
                    if case .text(let text) = message { sink.yield(text) }
                }
            }
        }
        let bound = Task {
            try? await Task.sleep(for: .seconds(120))
            sink.finish()
        }
        return (stream, [socket, bound])
    }
}

/// POSTs GraphQL documents, keeping each answer's status, body and `Retry-After`.
struct GraphQLPoster: Sendable {
    let client: HTTPClient

    /// Within 40 s: before, a request waited out the pool's reconnection backoff, about a minute.
    func post(_ url: String, token: String, _ query: String) async throws -> (
        status: UInt, body: String, retryAfter: String?
    ) {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(data: try JSONSerialization.data(withJSONObject: ["query": query])))
        let response = try await client.execute(request, timeout: .seconds(40))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (response.status.code, String(buffer: body), response.headers.first(name: "retry-after"))
    }
}
