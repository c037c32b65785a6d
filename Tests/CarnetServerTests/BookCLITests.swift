import CarnetStore
import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import Testing

/// `carnet principal`, `carnet book`, `carnet token --principal --book` and `--book` on the local commands.
@Suite("carnet CLI: principals and books")
struct BookCLITests {
    @Test(
        "Principals and books from the CLI; import, export, status and query work on the book named by --book",
        arguments: CatalogKind.available)
    func principalsAndBooks(kind: CatalogKind) async throws {
        switch kind {
        case .sqlite: try await principalsAndBooks(database: nil)
        case .postgres: try await PostgresTestDatabase.with { try await principalsAndBooks(database: $0.testURL) }
        }
    }

    /// The commands on the data folder, or with `--database` on PostgreSQL.
    func principalsAndBooks(database: String?) async throws {
        let carnet = try ChildProcess.carnetExecutable()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-cli-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let backend = ["--data", data] + (database.map { ["--database", $0] } ?? [])
        func run(_ arguments: [String]) async throws -> String {
            let result = try await ChildProcess.run(carnet, arguments + backend)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }
        _ = try await run(["principal", "create", "alice"])
        _ = try await run(["principal", "create", "sync-bot", "--service"])
        #expect(try await run(["principal", "list"]).contains("sync-bot"))
        let created = try await run(["book", "create", "Family", "--owner", "alice"])
        let bookID = try #require(created.split(separator: "(").last?.split(separator: ")").first.map(String.init))
        #expect(try await run(["book", "list", "--principal", "alice"]).contains("Family"))
        _ = try await run(["book", "share", bookID, "sync-bot", "--access", "readWrite"])
        #expect(try await run(["book", "list", "--principal", "sync-bot"]).contains("alice"))

        let cards = data + "/cards.vcf"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Fam Ily\r\nN:Ily;Fam;;;\r\nEND:VCARD\r\n".write(
            toFile: cards, atomically: true, encoding: .utf8)
        _ = try await run(["import", cards, "--book", bookID])
        #expect(try await run(["status", "--book", bookID]).contains("contacts:         1"))
        #expect(try await run(["status"]).contains("contacts:         0"))
        #expect(try await run(["export", "--book", bookID]).contains("FN:Fam Ily"))
        #expect(try await run(["query", "--book", bookID, "{ contacts { totalCount } }"]).contains(#""totalCount":1"#))

        let token = try await run([
            "token", "create", "--name", "bot", "--principal", "sync-bot", "--book", bookID, "--scope", "read",
            "--json",
        ])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(token.utf8)) as? [String: Any])
        #expect(json["principal"] as? String == "sync-bot" && json["books"] as? [String] == [bookID])
        // An id names the principal with that id, also when another principal is named with it.
        let aliceLine = try #require(
            try await run(["principal", "list"]).split(separator: "\n").first { $0.contains("alice") })
        let aliceID = try #require(aliceLine.split(separator: " ").first.map(String.init))
        _ = try await run(["principal", "create", aliceID])
        let byID = try await run(["token", "create", "--name", "a", "--principal", aliceID, "--json"])
        let owner = try #require(try JSONSerialization.jsonObject(with: Data(byID.utf8)) as? [String: Any])
        #expect(owner["principal"] as? String == "alice")
        let foreign = try await ChildProcess.run(
            carnet, ["token", "create", "--name", "x", "--principal", "alice", "--book", "nope"] + backend)
        #expect(foreign.status != 0)

        let unknown = try await ChildProcess.run(carnet, ["status", "--book", "nope"] + backend)
        #expect(unknown.status != 0)
        _ = try await run(["principal", "delete", "alice", "--yes"])
        let after = try await ChildProcess.run(carnet, ["status", "--book", bookID] + backend)
        #expect(after.status != 0)
        #expect(!FileManager.default.fileExists(atPath: data + "/books/\(bookID).sqlite"))
        if database != nil {
            let backup = try await ChildProcess.run(carnet, ["backup", data + "/copy"] + backend)
            #expect(backup.status != 0 && backup.stderr.contains("pg_dump"))
        }
    }
}
