import Foundation
import Testing

@testable import CarnetStore
@testable import CarnetVCard

/// Two imports at once whose cards name a new CATEGORIES group each made a group of that name, half the members in
/// each: no order of the two imports gives that (an outside tester's find).
@Suite("Concurrent imports and CATEGORIES")
struct ConcurrentImportGroupTests {
    static func file(_ tag: String) -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\nN:\(tag)0;A;;;\r\nEND:VCARD\r\n"
            + "BEGIN:VCARD\r\nVERSION:3.0\r\nN:\(tag)1;A;;;\r\nCATEGORIES:Team\r\nEND:VCARD\r\n"
    }

    @Test("Imports that both create a group of one name end with one group holding every member")
    func oneGroup() async throws {
        let fixture = try ImportFixture()
        let store = fixture.store
        // Each import saves its first card (no CATEGORIES), then waits for the other's: both have read the
        // container's groups before either makes "Team". Each on a background thread of its own, which the wait
        // blocks: on the cooperative pool, two such waits would stop every test of the process.
        let (first, second) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        func run(_ tag: String, signal: DispatchSemaphore, wait: DispatchSemaphore) async throws {
            var importer = VCardImporter(store: store, transactionAuthor: tag)
            importer.batchSize = 1
            _ = try await BackgroundExecutor.$ignoresThreadLimit.withValue(true) {
                try await importer.importCards(Data(Self.file(tag).utf8)) { handled in
                    guard handled == 1 else { return }
                    signal.signal()
                    wait.wait()
                }
            }
        }
        async let a: Void = run("a", signal: first, wait: second)
        async let b: Void = run("b", signal: second, wait: first)
        _ = try await (a, b)
        let teams = try await store.groups().filter { $0.name == "Team" }
        #expect(teams.count == 1, "\(teams.map(\.identifier))")
        let members = try await store.members(ofGroups: teams.map(\.identifier), keysToFetch: [.familyName])
        #expect(Set(members.values.flatMap { $0.map(\.familyName) }) == ["a1", "b1"])
    }

    /// Holds each of `parties` threads until all have arrived.
    final class Barrier: @unchecked Sendable {
        private let condition = NSCondition()
        private var waiting: Int

        init(parties: Int) { waiting = parties }

        func arriveAndWait() {
            condition.lock()
            waiting -= 1
            if waiting == 0 { condition.broadcast() }
            while waiting > 0 { condition.wait() }
            condition.unlock()
        }
    }

    @Test("Four imports that each create the group of one name end with one group holding every member")
    func manyImports() async throws {
        let fixture = try ImportFixture()
        let store = fixture.store
        let tags = ["a", "b", "c", "d"]
        // Every import has read the container's groups (and saved its first card) before any makes "Team".
        let barrier = Barrier(parties: tags.count)
        try await withThrowingTaskGroup(of: VCardImporter.Summary.self) { group in
            for tag in tags {
                group.addTask {
                    var importer = VCardImporter(store: store, transactionAuthor: tag)
                    importer.batchSize = 1
                    return try await BackgroundExecutor.$ignoresThreadLimit.withValue(true) {
                        try await importer.importCards(Data(Self.file(tag).utf8)) { handled in
                            if handled == 1 { barrier.arriveAndWait() }
                        }
                    }
                }
            }
            for try await summary in group {
                #expect(summary.added == 2 && summary.skipped.isEmpty && summary.warnings.isEmpty, "\(summary)")
            }
        }
        let teams = try await store.groups().filter { $0.name == "Team" }
        #expect(teams.count == 1)
        let members = try await store.members(ofGroups: teams.map(\.identifier), keysToFetch: [.familyName])
        #expect(Set(members.values.flatMap { $0.map(\.familyName) }) == ["a1", "b1", "c1", "d1"])
    }

    @Test("A group of the name a client adds while an import runs stays, with its identifier and members")
    func clientGroupStays() async throws {
        let fixture = try ImportFixture()
        let store = fixture.store
        let client = Group(name: "Team")
        let added = DispatchSemaphore(value: 0)
        var importer = VCardImporter(store: store, transactionAuthor: "import")
        importer.batchSize = 1
        let summary = try await BackgroundExecutor.$ignoresThreadLimit.withValue(true) {
            try await importer.importCards(Data(Self.file("a").utf8)) { handled in
                guard handled == 1 else { return }
                Task {
                    _ = try? await store.execute(
                        SaveRequest(
                            transactionAuthor: "client", operations: [.addGroup(client, containerIdentifier: nil)]))
                    added.signal()
                }
                added.wait()
            }
        }
        #expect(summary.added == 2 && summary.groupsCreated == 0, "\(summary)")
        // As after the client's save: the card joins the client's group, the one "Team".
        let teams = try await store.groups().filter { $0.name == "Team" }
        #expect(teams.map(\.identifier) == [client.identifier], "\(teams)")
        let members = try await store.members(ofGroups: [client.identifier], keysToFetch: [.familyName])
        #expect(members[client.identifier]?.map(\.familyName) == ["a1"])
    }
}
