import CarnetStore
import CarnetStoreSQLite
import CarnetTestSupport
import Foundation
import Testing

/// The `carnet` executable as people and scripts use it.
@Suite("carnet CLI")
struct CLITests {
    @Test(
        "serve: first start prints the CA and an admin token; query --url, token create and backup work while it runs; SIGTERM exits 0"
    )
    func serveLifecycle() async throws {
        let carnet = try ChildProcess.carnetExecutable()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-cli-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ChildProcess(carnet, ["serve", "--data", data, "--port", "0"])
        let listening = try await server.line(containing: "is listening on")
        let url = try #require(listening.split(separator: " ").last.map(String.init))
        let stdout = server.stdout
        let token = try #require(
            stdout.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("carnet_") }.map(String.init))
        #expect(stdout.contains("--cacert \(data)/tls/ca.pem"))
        // The ready-to-paste curl line names the port the system chose for --port 0.
        let port = try #require(URL(string: url)?.port)
        #expect(port != 0)
        #expect(stdout.contains("https://localhost:\(port)/graphql"))

        let save =
            #"mutation { save(request: {operations: [{addContact: {givenName: "Zoë", familyName: "Ålund"}}]}) { __typename } }"#
        let saved = try await ChildProcess.run(carnet, ["query", "--data", data, "--url", url, "--token", token, save])
        #expect(saved.status == 0, "\(saved.stderr)")
        let read = try await ChildProcess.run(
            carnet,
            [
                "query", "--data", data, "--url", url, "--token", token,
                "query($q: String) { contacts(first: 5, filter: {name: $q}) { totalCount } }", "--variables",
                #"{"q":"zoe"}"#,
            ])
        #expect(
            read.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == #"{"data":{"contacts":{"totalCount":1}}}"#)
        let refused = try await ChildProcess.run(
            carnet, ["query", "--data", data, "--url", url, "--token", token, "{ nope }"])
        #expect(refused.status != 0)
        // Variables the parser refuses say why, not only that they are no object.
        let marks = String(repeating: "\u{301}", count: CombiningMarks.maxRun + 1)
        let badVariables = try await ChildProcess.run(
            carnet,
            [
                "query", "--data", data, "--url", url, "--token", token, "{ __typename }", "--variables",
                #"{"q":"a\#(marks)"}"#,
            ])
        #expect(badVariables.status != 0)
        #expect(badVariables.stderr.contains("combining marks"), "\(badVariables.stderr)")
        // --book is the local database's: with --url it is refused, not ignored (the save went to the default book).
        let elsewhere = try await ChildProcess.run(
            carnet, ["query", "--data", data, "--url", url, "--token", token, "--book", "other", save])
        #expect(elsewhere.status != 0 && elsewhere.stderr.contains("--book"), "\(elsewhere.stderr)")

        let created = try await ChildProcess.run(
            carnet, ["token", "create", "--data", data, "--name", "reader", "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [String: Any])
        #expect(json["scopes"] as? [String] == ["read"])
        let reader = try #require(json["token"] as? String)
        let forbidden = try await ChildProcess.run(
            carnet, ["query", "--data", data, "--url", url, "--token", reader, save])
        #expect(forbidden.status != 0)
        #expect(forbidden.stdout.contains("FORBIDDEN"))

        let backup = data + "/backup.sqlite"
        let copied = try await ChildProcess.run(carnet, ["backup", "--data", data, backup])
        #expect(copied.status == 0, "\(copied.stderr)")
        let copy = try SQLiteStore.open(path: backup)
        #expect(try await copy.contactCount() == 1)
        try await copy.close()

        kill(server.process.processIdentifier, SIGTERM)
        #expect(try await server.wait(timeout: .seconds(30)) == 0)
    }

    @Test(
        "serve logs a line per request with its request id, in text or JSON, and never the token or the variables",
        arguments: ["text", "json"])
    func requestLogs(format: String) async throws {
        let carnet = try ChildProcess.carnetExecutable()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-logs-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ChildProcess(carnet, ["serve", "--data", data, "--port", "0", "--log-format", format])
        let listening = try await server.line(containing: "is listening on")
        let url = try #require(listening.split(separator: " ").last.map(String.init))
        let token = try #require(
            server.stdout.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("carnet_") }.map(String.init))
        let read = try await ChildProcess.run(
            carnet,
            [
                "query", "--data", data, "--url", url, "--token", token,
                "query($q: String) { contacts(first: 5, filter: {name: $q}) { totalCount } }", "--variables",
                #"{"q":"zoesecret"}"#,
            ])
        #expect(read.status == 0, "\(read.stderr)")
        let line = try await server.line(containing: "http.path")
        if format == "json" {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["http.path"] as? String == "/graphql")
            #expect(object["http.status"] as? String == "200")
            #expect((object["hb.request.id"] as? String)?.isEmpty == false)
        } else {
            #expect(line.contains(" info "))
            #expect(line.contains("http.path=/graphql") && line.contains("http.status=200"))
            #expect(line.contains("hb.request.id="))
        }
        kill(server.process.processIdentifier, SIGTERM)
        #expect(try await server.wait(timeout: .seconds(30)) == 0)
        // Everything after the first-start banner (which shows the admin token once) is the log.
        let output = server.stdout
        let logs = try #require(output.range(of: "is listening on").map { output[$0.upperBound...] })
        #expect(logs.contains("/graphql"))
        #expect(!logs.contains(token) && !logs.contains("zoesecret"))
    }

    /// An outside tester's finds: `export PATH` wrote a new file and renamed it over PATH (a link or a pipe became a
    /// regular file, and as root a device node did), a failed write trapped with a backtrace, and a missing --file
    /// or a --data that is a file printed Foundation's error dump.
    @Test("export writes through a link and says why a write fails; unreadable --file and a --data file are said so")
    func outputsAndPaths() async throws {
        let carnet = try ChildProcess.carnetExecutable()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        let saved = try await ChildProcess.run(
            carnet,
            [
                "query", "--data", data,
                #"mutation { save(request: {operations: [{addContact: {givenName: "Ann"}}]}) { revision } }"#,
            ])
        #expect(saved.status == 0, "\(saved.stderr)")
        let fileManager = FileManager.default
        let (link, target) = (
            folder.appendingPathComponent("link.vcf").path, folder.appendingPathComponent("t.vcf").path
        )
        try fileManager.createSymbolicLink(atPath: link, withDestinationPath: target)
        let exported = try await ChildProcess.run(carnet, ["export", "--data", data, link])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect((try? fileManager.destinationOfSymbolicLink(atPath: link)) == target)
        #expect((try? String(contentsOfFile: target, encoding: .utf8))?.contains("BEGIN:VCARD") == true)
        // A write that fails: the device is full (through a link, so that a regression replaces the link only).
        let full = folder.appendingPathComponent("full.vcf").path
        try fileManager.createSymbolicLink(atPath: full, withDestinationPath: "/dev/full")
        let failed = try await ChildProcess.run(carnet, ["export", "--data", data, full])
        #expect(failed.status != 0 && failed.stderr.contains("No space left on device"), "\(failed.stderr)")
        #expect(!failed.stderr.contains("Fatal error"))
        #expect((try? fileManager.destinationOfSymbolicLink(atPath: full)) == "/dev/full")
        // A --group that names no group leaves the file as it was (it was emptied, then removed).
        let kept = folder.appendingPathComponent("kept.vcf").path
        #expect(fileManager.createFile(atPath: kept, contents: Data("keep".utf8)))
        let noGroup = try await ChildProcess.run(carnet, ["export", "--data", data, "--group", "nope", kept])
        #expect(noGroup.status != 0)
        #expect((try? String(contentsOfFile: kept, encoding: .utf8)) == "keep")

        let missing = try await ChildProcess.run(
            carnet, ["query", "--data", data, "--file", folder.appendingPathComponent("none.graphql").path])
        #expect(missing.status != 0 && missing.stderr.contains("no file at"), "\(missing.stderr)")
        #expect(!missing.stderr.contains("NSCocoaErrorDomain"))
        let plainFile = folder.appendingPathComponent("plain").path
        #expect(fileManager.createFile(atPath: plainFile, contents: Data("x".utf8)))
        let status = try await ChildProcess.run(carnet, ["status", "--data", plainFile])
        #expect(status.status != 0 && status.stderr.contains("is a file, not a data folder"), "\(status.stderr)")
    }

    /// A typo in --data made `backup` copy a new empty store and exit 0.
    @Test("Commands that read a data folder refuse one that does not exist, and create nothing")
    func missingDataFolder() async throws {
        let carnet = try ChildProcess.carnetExecutable()
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-none-\(UUID().uuidString)")
        let copy = missing.path + ".sqlite"
        for arguments in [
            ["backup", copy], ["export"], ["token", "list"], ["principal", "list"], ["book", "list"],
            ["token", "revoke", "x"],
        ] {
            let result = try await ChildProcess.run(carnet, arguments + ["--data", missing.path])
            #expect(result.status != 0 && result.stderr.contains("No data folder"), "\(arguments): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: missing.path) && !FileManager.default.fileExists(atPath: copy))
        // A backup needs a file to write: SQLite reads "" and ":memory:" as none.
        for path in ["", ":memory:"] {
            let result = try await ChildProcess.run(carnet, ["backup", path, "--data", missing.path])
            #expect(result.status != 0 && result.stderr.contains("PATH names the new file"), "\(result.stderr)")
        }
    }

    @Test("query on the local database file: the document from an argument or standard input, with a default author")
    func localQuery() async throws {
        let carnet = try ChildProcess.carnetExecutable()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-cli-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let before = try await ChildProcess.run(carnet, ["query", "--data", data, "{ currentHistoryToken }"])
        let token = try #require(
            ((try JSONSerialization.jsonObject(with: Data(before.stdout.utf8)) as? [String: Any])?["data"]
                as? [String: Any])?["currentHistoryToken"] as? String)
        let save =
            #"mutation { save(request: {operations: [{addContact: {givenName: "Anna"}}]}) { contacts { givenName } } }"#
        let saved = try await ChildProcess.run(carnet, ["query", "--data", data, "--author", "script", save])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(saved.stdout.contains(#""givenName":"Anna""#))
        let store = try SQLiteStore.open(path: data + "/carnet.sqlite")
        let page = try await store.changeHistory(ChangeHistoryFetchRequest(startingToken: token))
        try await store.close()
        #expect(page.events.map(\.author) == ["script"])
        let stdin = try await ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "echo '{ contacts(first: 1) { totalCount } }' | '\(carnet.path)' query --data '\(data)'"])
        #expect(stdin.stdout.contains(#""totalCount":1"#))
    }
}
