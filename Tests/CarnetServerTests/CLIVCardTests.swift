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
        // A group that is not there is refused, not exported as empty.
        let unknown = try await ChildProcess.run(carnet, ["export", "--data", data, "--group", "nope"])
        #expect(unknown.status != 0 && unknown.stderr.contains("RECORD_DOES_NOT_EXIST"), "\(unknown.stderr)")
    }

    /// Foundation's reading of a pipe said it had no permission, and the file was mapped: a file truncated while
    /// the import read it killed the process (SIGBUS).
    @Test("import reads a pipe, standard input (-) and a folder's refusal as files")
    func pipes() async throws {
        let carnet = try ChildProcess.carnetExecutable().path
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cards = directory.appendingPathComponent("cards.vcf").path
        try Self.cards.write(toFile: cards, atomically: true, encoding: .utf8)
        let data = directory.appendingPathComponent("data").path
        let fifo = directory.appendingPathComponent("fifo").path
        let script = """
            set -e
            '\(carnet)' import --data '\(data)' - < '\(cards)'
            mkfifo '\(fifo)'
            cat '\(cards)' > '\(fifo)' &
            '\(carnet)' import --data '\(data)' '\(fifo)'
            """
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("-: imported 1 cards (1 added"), "\(result.stdout)")
        #expect(result.stdout.contains("fifo: imported 1 cards (0 added, 0 updated, 1 unchanged)"), "\(result.stdout)")
        let folder = try await ChildProcess.run(
            URL(fileURLWithPath: carnet), ["import", "--data", data, directory.path])
        #expect(folder.status != 0 && folder.stderr.contains("Is a directory"), "\(folder.stderr)")
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
