import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import Testing

/// `carnet migrate-store --from DATA --to postgres://…`, as an operator runs it.
@Suite("carnet migrate-store", .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
struct MigrateStoreCLITests {
    @Test("A data folder copied to PostgreSQL exports the same cards, keeps its history tokens, and is copied once")
    func copiesAFolder() async throws {
        let carnet = try ChildProcess.carnetExecutable()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-migrate-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: data) }
        func run(_ arguments: [String]) async throws -> String {
            let result = try await ChildProcess.run(carnet, arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }
        _ = try await run(["principal", "create", "alice", "--data", data])
        let created = try await run(["book", "create", "Family", "--owner", "alice", "--data", data])
        let book = try #require(created.split(separator: "(").last?.split(separator: ")").first.map(String.init))
        let cards = data + "/cards.vcf"
        try """
        BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Zoë Ørsted\r\nN:Ørsted;Zoë;;;\r\nTEL;TYPE=CELL:+33 6 12 34 56 78\r\nEND:VCARD\r
        BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Anna Li\r\nN:Li;Anna;;;\r\nEMAIL:anna@example.org\r\nEND:VCARD\r\n
        """.write(toFile: cards, atomically: true, encoding: .utf8)
        _ = try await run(["import", cards, "--book", book, "--data", data])
        _ = try await run(["token", "create", "--name", "phone", "--principal", "alice", "--data", data])
        let tokenQuery = "{ currentHistoryToken }"
        let historyToken = try await run(["query", "--book", book, tokenQuery, "--data", data])
        let exported = try await run(["export", "--book", book, "--data", data])

        try await PostgresTestDatabase.with { location in
            let url = location.testURL
            let copied = try await run(["migrate-store", "--from", data, "--to", url])
            #expect(copied.contains("Copied 2 principals, 3 address books and 1 access tokens."))
            #expect(copied.contains("Copied address book Family (\(book)): 2 contacts, 0 groups."), "\(copied)")
            #expect(try await run(["export", "--book", book, "--database", url]) == exported)
            #expect(try await run(["query", "--book", book, tokenQuery, "--database", url]) == historyToken)
            #expect(try await run(["token", "list", "--database", url]).contains("phone"))
            #expect(try await run(["book", "list", "--principal", "alice", "--database", url]).contains("Family"))

            let again = try await ChildProcess.run(carnet, ["migrate-store", "--from", data, "--to", url])
            #expect(again.status != 0 && again.stderr.contains("new database"), "\(again.stderr)")
            let missing = try await ChildProcess.run(carnet, ["migrate-store", "--from", data + "/nope", "--to", url])
            #expect(missing.status != 0 && missing.stderr.contains("No data folder"), "\(missing.stderr)")
        }
    }
}
