import AsyncHTTPClient
import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import NIOCore
import NIOSSL
import Synchronization
import Testing

/// A `carnet serve` process killed (SIGKILL) while clients save through it loses no save it acknowledged: the other
/// process, on the same PostgreSQL database, serves every one of them.
@Suite(
    "carnet serve on PostgreSQL: an instance killed mid-write",
    .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
struct PostgresKilledServeTests {
    @Test("Every save acknowledged by the killed process is read through the other")
    func killedInstance() async throws {
        try await PostgresTestDatabase.with { location in
            let carnet = try ChildProcess.carnetExecutable()
            let base = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-pg-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: base) }
            let (dataA, dataB) = (base.appendingPathComponent("a").path, base.appendingPathComponent("b").path)
            let victim = try ChildProcess(
                carnet, ["serve", "--data", dataA, "--database", location.testURL, "--port", "0"])
            let urlA = try #require(
                try await victim.line(containing: "is listening on").split(separator: " ").last.map(String.init))
            let token = try #require(
                victim.stdout.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("carnet_") }.map(String.init))
            let survivor = try ChildProcess(
                carnet, ["serve", "--data", dataB, "--database", location.testURL, "--port", "0"])
            let urlB = try #require(
                try await survivor.line(containing: "is listening on").split(separator: " ").last.map(String.init))

            let acknowledged = Acknowledged()
            // Shut down on every path (GraphQLClient.with): AsyncHTTPClient traps on a client dropped without it.
            try await GraphQLClient.with(url: urlA, caPath: dataA + "/tls/ca.pem", token: token) { clientA in
                let writers = Task {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for writer in 0..<4 {
                            group.addTask {
                                for index in 0... {
                                    let reply = try? await clientA.post(
                                        #"mutation { save(request: {operations: [{addContact: {givenName: "W\#(writer) \#(index)"}}]}) { contacts { id } } }"#
                                    )
                                    // A connection refused or cut after the kill is no acknowledgement.
                                    guard let reply, let id = GraphQLClient.savedID(reply) else { return }
                                    acknowledged.ids.withLock { $0.append(id) }
                                }
                            }
                        }
                        try await group.waitForAll()
                    }
                }
                let started = try await ChildProcess.wait(seconds: 120) { acknowledged.ids.withLock { $0.count } >= 60 }
                #expect(started, "the saves did not get going")
                try await victim.kill()
                _ = await writers.result
            }

            let saved = acknowledged.ids.withLock { $0 }
            try await GraphQLClient.with(url: urlB, caPath: dataB + "/tls/ca.pem", token: token) { clientB in
                var found = Set<String>()
                for chunk in stride(from: 0, to: saved.count, by: 500).map({
                    Array(saved[$0..<min($0 + 500, saved.count)])
                }
                ) {
                    let ids = chunk.map { "\"\($0)\"" }.joined(separator: ",")
                    let reply = try await clientB.post(
                        #"{ contacts(filter: {ids: [\#(ids)]}, first: 1000) { nodes { id } } }"#)
                    found.formUnion(GraphQLClient.nodeIDs(reply))
                }
                #expect(found == Set(saved), "\(saved.count) acknowledged, \(found.count) found")
            }
            kill(survivor.process.processIdentifier, SIGTERM)
            #expect(try await survivor.wait(timeout: .seconds(30)) == 0)
        }
    }
}

/// The contacts whose save a client saw acknowledged.
private final class Acknowledged: Sendable {
    let ids = Mutex<[String]>([])
}

/// A bare GraphQL-over-HTTPS client that verifies the server against its CA.
private struct GraphQLClient: Sendable {
    let url: String
    let token: String
    let client: HTTPClient

    /// Runs `body` with a client of the server at `url`, shut down afterwards whatever happens.
    static func with(url: String, caPath: String, token: String, _ body: (GraphQLClient) async throws -> Void)
        async throws
    {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(caPath)
        try await withHTTPClient(.init(tlsConfiguration: tls)) { client in
            try await body(GraphQLClient(url: url, token: token, client: client))
        }
    }

    func post(_ query: String) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(data: try JSONSerialization.data(withJSONObject: ["query": query])))
        let response = try await client.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 1 << 24)
        return (try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any]) ?? [:]
    }

    static func savedID(_ reply: [String: Any]) -> String? {
        let save = (reply["data"] as? [String: Any])?["save"] as? [String: Any]
        return (save?["contacts"] as? [[String: Any]])?.first?["id"] as? String
    }

    static func nodeIDs(_ reply: [String: Any]) -> [String] {
        let contacts = (reply["data"] as? [String: Any])?["contacts"] as? [String: Any]
        return (contacts?["nodes"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }
}
