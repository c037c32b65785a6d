import Foundation
import Testing

@testable import CarnetStore
@testable import CarnetVCard

/// Imports at once whose group cards (under UIDs of their own) or CATEGORIES make the group of one new name each made
/// a group of it, where either order of them leaves one: the second finds the first's by its name (an outside
/// tester's find). The save that makes a group of a new name now requires that no group bears it
/// (``GroupNameAbsence``); refused, the import reads the groups again and joins the one there.
@Suite("Concurrent imports and group cards")
struct ConcurrentGroupCardImportTests {
    static func card(_ family: String, categories: String? = nil) -> String {
        "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:\(family)\r\nN:\(family);A;;;\r\nFN:A \(family)\r\n"
            + (categories.map { "CATEGORIES:\($0)\r\n" } ?? "") + "END:VCARD\r\n"
    }

    /// Contact cards `<tag>0` and `<tag>1`, then a group card "Team" of UID `team-<tag>` listing `<tag>1`.
    static func groupCardFile(_ tag: String) -> String {
        card(tag + "0") + card(tag + "1")
            + "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nUID:team-\(tag)\r\nFN:Team\r\nMEMBER:urn:uuid:\(tag)1\r\n"
            + "END:VCARD\r\n"
    }

    /// Contact cards `<tag>0` and `<tag>1`, the second in CATEGORIES "Team".
    static func categoriesFile(_ tag: String) -> String { card(tag + "0") + card(tag + "1", categories: "Team") }

    /// Imports the files at once, a card a batch: every import has read the container's groups (and saved its first
    /// card) before any saves more.
    static func importAtOnce(_ files: [(tag: String, text: String)], into store: any ContactStore) async throws {
        let barrier = ConcurrentImportGroupTests.Barrier(parties: files.count)
        try await withThrowingTaskGroup(of: VCardImporter.Summary.self) { group in
            for file in files {
                group.addTask {
                    var importer = VCardImporter(store: store, transactionAuthor: file.tag)
                    importer.batchSize = 1
                    return try await BackgroundExecutor.$ignoresThreadLimit.withValue(true) {
                        try await importer.importCards(Data(file.text.utf8)) { handled in
                            if handled == 1 { barrier.arriveAndWait() }
                        }
                    }
                }
            }
            for try await summary in group {
                #expect(summary.added == 2 && summary.skipped.isEmpty && summary.warnings.isEmpty, "\(summary)")
            }
        }
    }

    static func teams(_ store: any ContactStore) async throws -> [String: Set<String>] {
        let teams = try await store.groups().filter { $0.name == "Team" }.map(\.identifier)
        let members = try await store.members(ofGroups: teams, keysToFetch: [.familyName])
        return Dictionary(uniqueKeysWithValues: teams.map { ($0, Set((members[$0] ?? []).map(\.familyName))) })
    }

    /// A client's save of `group`, made while an import runs.
    static func adding(_ group: Group, to store: any ContactStore) -> GoneGroupImportTests.Interruption {
        GoneGroupImportTests.Interruption {
            _ = try await store.execute(
                SaveRequest(transactionAuthor: "client", operations: [.addGroup(group, containerIdentifier: nil)]))
        }
    }

    @Test("Imports whose group cards make a group of one name, each under its own UID, end with one group")
    func groupCards() async throws {
        let fixture = try ImportFixture()
        try await Self.importAtOnce(
            [("a", Self.groupCardFile("a")), ("b", Self.groupCardFile("b"))], into: fixture.store)
        let teams = try await Self.teams(fixture.store)
        #expect(teams.count == 1, "\(teams)")
        #expect(teams.values.first == ["a1", "b1"])
        #expect(teams.keys.allSatisfy { ["team-a", "team-b"].contains($0) }, "\(teams)")
    }

    @Test("A group card's import and a CATEGORIES import of its name at once end with one group")
    func groupCardAndCategories() async throws {
        let fixture = try ImportFixture()
        try await Self.importAtOnce(
            [("a", Self.groupCardFile("a")), ("b", Self.categoriesFile("b"))], into: fixture.store)
        let teams = try await Self.teams(fixture.store)
        #expect(teams.count == 1, "\(teams)")
        #expect(teams.values.first == ["a1", "b1"])
    }

    @Test("A strict import whose group card's name a client took meanwhile joins the client's group")
    func strictJoinsClientGroup() async throws {
        let fixture = try ImportFixture()
        let store = fixture.store
        let client = Group(name: "Team")
        let adder = Self.adding(client, to: store)
        var importer = VCardImporter(store: store, transactionAuthor: "import", strict: true)
        // Asked before each batch and once before the commit: the second time, every card is planned.
        importer.isAbandoned = {
            let check = adder.checks.withLock { count in
                count += 1
                return count
            }
            if check == 2 { adder.runBlocking() }
            return false
        }
        let summary = try await BackgroundExecutor.$ignoresThreadLimit.withValue(true) {
            try await importer.importCards(Data(Self.groupCardFile("x").utf8))
        }
        #expect(adder.failure.withLock { $0 } == nil)
        #expect(adder.made.withLock { $0 })
        #expect(summary.added == 2 && summary.groupsCreated == 0, "\(summary)")
        #expect(try await Self.teams(store) == [client.identifier: ["x1"]])
    }

    /// The name a save requires absent is checked as the save adds a group of it: checked before every operation, a
    /// file that renames a group (by its card's UID) and makes a new group of the old name was refused on every try.
    @Test(
        "A file that renames a group and makes a new group of its old name imports, strict or not",
        arguments: [false, true])
    func renameFreesTheName(strict: Bool) async throws {
        let fixture = try ImportFixture()
        let store = fixture.store
        let old = Group(identifier: "team-old", name: "Team")
        _ = try await store.execute(SaveRequest(operations: [.addGroup(old, containerIdentifier: nil)]))
        let file =
            Self.card("x0") + Self.card("x1")
            + "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nUID:team-old\r\nFN:Staff\r\nMEMBER:urn:uuid:x0\r\n"
            + "END:VCARD\r\n"
            + "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nUID:team-new\r\nFN:Team\r\nMEMBER:urn:uuid:x1\r\n"
            + "END:VCARD\r\n"
        var importer = VCardImporter(store: store, transactionAuthor: "import", strict: strict)
        importer.batchSize = 1
        let summary = try await BackgroundExecutor.$ignoresThreadLimit.withValue(true) {
            try await importer.importCards(Data(file.utf8))
        }
        #expect(summary.added == 2 && summary.warnings.isEmpty && summary.skipped.isEmpty, "\(summary)")
        let groups = try await store.groups()
        #expect(Set(groups.map { [$0.identifier, $0.name] }) == [["team-old", "Staff"], ["team-new", "Team"]])
        let members = try await store.members(ofGroups: ["team-old", "team-new"], keysToFetch: [.familyName])
        #expect(members["team-old"]?.map(\.familyName) == ["x0"] && members["team-new"]?.map(\.familyName) == ["x1"])
    }

    @Test("A lenient import whose group card's name a client took meanwhile joins the client's group")
    func lenientJoinsClientGroup() async throws {
        let fixture = try ImportFixture()
        let store = fixture.store
        let client = Group(name: "Team")
        var importer = VCardImporter(store: store, transactionAuthor: "import")
        importer.batchSize = 1
        let adder = Self.adding(client, to: store)
        let summary = try await BackgroundExecutor.$ignoresThreadLimit.withValue(true) {
            try await importer.importCards(Data(Self.groupCardFile("x").utf8)) { handled in
                if handled == 1 { adder.runBlocking() }
            }
        }
        #expect(adder.made.withLock { $0 })
        #expect(summary.added == 2 && summary.groupsCreated == 0 && summary.warnings.isEmpty, "\(summary)")
        #expect(try await Self.teams(store) == [client.identifier: ["x1"]])
    }
}
