import CarnetStore
import CarnetStoreSQLite
import CarnetTestSupport
import Foundation
import Testing

/// The CLI's vCard paths (issue 15): an import too large for a command line through `query --variables @file`,
/// strict imports that write nothing, and export's group styles.
@Suite("CLI: vCard import and export")
struct CLIVCardTests {
    static let cards = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        N:Ahn;Grace;;;\r
        FN:Grace Ahn\r
        UID:cli-grace\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:3.0\r
        N:Book Club;;;;\r
        FN:Book Club\r
        X-ADDRESSBOOKSERVER-KIND:group\r
        X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:cli-grace\r
        UID:cli-book-club\r
        END:VCARD\r

        """

    @Test("query --variables @file.json runs importVCards with the file's data")
    func variablesFromFile() async throws {
        let carnet = try ChildProcess.carnetExecutable()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let variables = directory.appendingPathComponent("variables.json")
        try JSONSerialization.data(withJSONObject: ["data": Self.cards]).write(to: variables)
        let mutation = "mutation($data: String!) { importVCards(data: $data) { added groupCards warnings { key } } }"
        let data = directory.appendingPathComponent("data").path
        let result = try await ChildProcess.run(
            carnet, ["query", "--data", data, "--variables", "@" + variables.path, mutation])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""added":1"#) && result.stdout.contains(#""groupCards":1"#))
        let missing = try await ChildProcess.run(
            carnet,
            ["query", "--data", data, "--variables", "@" + directory.appendingPathComponent("none").path, mutation])
        #expect(missing.status != 0 && missing.stderr.contains("cannot read the variables file"))

        let export = try await ChildProcess.run(
            carnet, ["export", "--data", data, "--format", "4.0", "--groups", "cards"])
        #expect(export.status == 0)
        #expect(export.stdout.contains("KIND:group\r\nFN:Book Club\r\nMEMBER:urn:uuid:cli-grace\r\n"))
        #expect(!export.stdout.contains("CATEGORIES"))
    }

    @Test("import --strict: a store refusal (no such container) writes nothing and exits 1")
    func strictImport() async throws {
        let carnet = try ChildProcess.carnetExecutable()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("cards.vcf")
        try Data(Self.cards.utf8).write(to: file)
        let data = directory.appendingPathComponent("data").path
        let result = try await ChildProcess.run(
            carnet, ["import", "--data", data, "--strict", "--container", "no-such-container", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("refused (strict), nothing written"))
        let store = try SQLiteStore.open(path: data + "/carnet.sqlite")
        #expect(try await store.contactCount() == 0)
        try await store.close()
    }
}
