import CarnetStore
import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import Testing

/// Two real `carnet serve` processes on one PostgreSQL database, each with its own data folder (its own development
/// certificate), reached with `carnet query --url` as two clients behind a load balancer would.
@Suite(
    "carnet serve: two processes on PostgreSQL",
    .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
struct PostgresServeTests {
    @Test("A save through one process is read through the other; conflicting saves through both: one CONFLICT")
    func twoProcesses() async throws {
        try await PostgresTestDatabase.with { location in
            let carnet = try ChildProcess.carnetExecutable()
            let base = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-pg-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: base) }
            let (dataA, dataB) = (base.appendingPathComponent("a").path, base.appendingPathComponent("b").path)
            let database = location.testURL
            let first = try ChildProcess(carnet, ["serve", "--data", dataA, "--database", database, "--port", "0"])
            let urlA = try #require(
                try await first.line(containing: "is listening on").split(separator: " ").last.map(String.init))
            // The first start of the database prints the admin token; the second process finds one and prints none.
            let token = try #require(
                first.stdout.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("carnet_") }.map(String.init))
            let second = try ChildProcess(carnet, ["serve", "--data", dataB, "--database", database, "--port", "0"])
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
}
