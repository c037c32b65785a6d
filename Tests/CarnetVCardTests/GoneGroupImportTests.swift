import Foundation
import Synchronization
import Testing

@testable import CarnetStore
@testable import CarnetVCard

/// A group an import knew went while it ran (another import merged it into its own group of the name, or a client
/// deleted it): every later card naming it was refused "No such group", and a whole import was skipped, in a CI run
/// of twelve imports into three books at once.
@Suite("Groups that go while an import runs")
struct GoneGroupImportTests {
    static let file = card("x0") + card("x1")

    static func card(_ family: String) -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\nN:\(family);A;;;\r\nCATEGORIES:Team\r\nEND:VCARD\r\n"
    }

    /// What a concurrent import's merge does: `old`'s members go into `target` (a new group of the name when
    /// `nil`), and `old` goes.
    static func mergeAway(_ old: String, into target: String?, in store: any ContactStore) async throws {
        let members = try await store.members(ofGroups: [old], keysToFetch: [])[old] ?? []
        var operations: [SaveOperation] = []
        let survivor = target ?? Group(name: "Team").identifier
        if target == nil {
            operations.append(.addGroup(Group(identifier: survivor, name: "Team"), containerIdentifier: nil))
        }
        for member in members {
            operations.append(.addMember(contactIdentifier: member.identifier, groupIdentifier: survivor))
        }
        operations.append(.deleteGroup(identifier: old))
        _ = try await store.execute(SaveRequest(transactionAuthor: "merge", operations: operations))
    }

    /// A change another writer makes while an import runs, from the import's callback, which is synchronous: it
    /// blocks its background thread (not one of the cooperative pool) until the change is in.
    final class Interruption: Sendable {
        let change: @Sendable () async throws -> Void
        let failure = Mutex<String?>(nil)
        let made = Mutex(false)
        /// How many times the import asked ``VCardImporter/isAbandoned``.
        let checks = Mutex(0)

        init(_ change: @escaping @Sendable () async throws -> Void) { self.change = change }

        func runBlocking() {
            let done = DispatchSemaphore(value: 0)
            Task {
                do {
                    try await change()
                    made.withLock { $0 = true }
                } catch {
                    failure.withLock { $0 = "\(error)" }
                }
                done.signal()
            }
            done.wait()
        }
    }

    /// Imports ``file`` leniently, a card a batch, with `interruption` made once the first card is saved.
    static func importInterrupted(_ store: any ContactStore, by interruption: Interruption) async throws
        -> VCardImporter.Summary
    {
        var importer = VCardImporter(store: store, transactionAuthor: "import")
        importer.batchSize = 1
        let summary = try await BackgroundExecutor.$ignoresThreadLimit.withValue(true) {
            try await importer.importCards(Data(file.utf8)) { handled in
                if handled == 1 { interruption.runBlocking() }
            }
        }
        #expect(interruption.failure.withLock { $0 } == nil)
        #expect(interruption.made.withLock { $0 })
        return summary
    }

    static func team(in store: any ContactStore) async throws -> (groups: Int, members: Set<String>) {
        let teams = try await store.groups().filter { $0.name == "Team" }
        let members = try await store.members(ofGroups: teams.map(\.identifier), keysToFetch: [.familyName])
        let names: [String] = members.values.flatMap { $0.map(\.familyName) }
        return (teams.count, Set(names))
    }

    static func existingTeam(_ store: any ContactStore) async throws -> String {
        let group = Group(name: "Team")
        _ = try await store.execute(
            SaveRequest(transactionAuthor: "setup", operations: [.addGroup(group, containerIdentifier: nil)]))
        return group.identifier
    }

    @Test("A lenient import's next batch joins the group its group was merged into: no card skipped")
    func lenient() async throws {
        let fixture = try ImportFixture()
        let store = fixture.store
        let old = try await Self.existingTeam(store)
        let summary = try await Self.importInterrupted(
            store, by: Interruption { try await Self.mergeAway(old, into: nil, in: store) })
        #expect(summary.added == 2)
        #expect(summary.skipped.isEmpty, "\(summary.skipped)")
        let team = try await Self.team(in: store)
        #expect(team.groups == 1)
        #expect(team.members == ["x0", "x1"])
    }

    @Test("A strict import whose commit meets a merged-away group is planned again and commits whole")
    func strict() async throws {
        let fixture = try ImportFixture()
        let store = fixture.store
        let old = try await Self.existingTeam(store)
        let merger = Interruption { try await Self.mergeAway(old, into: nil, in: store) }
        var importer = VCardImporter(store: store, transactionAuthor: "import", strict: true)
        // Asked before each batch and once before the commit: the second time, every card is planned on `old`.
        importer.isAbandoned = {
            let check = merger.checks.withLock { count in
                count += 1
                return count
            }
            if check == 2 { merger.runBlocking() }
            return false
        }
        let summary = try await BackgroundExecutor.$ignoresThreadLimit.withValue(true) {
            try await importer.importCards(Data(Self.file.utf8))
        }
        #expect(merger.failure.withLock { $0 } == nil)
        #expect(merger.made.withLock { $0 })
        #expect(merger.checks.withLock { $0 } > 2)
        #expect(summary.added == 2)
        let team = try await Self.team(in: store)
        #expect(team.groups == 1)
        #expect(team.members == ["x0", "x1"])
    }

    @Test("Cards saved while two groups bore their CATEGORIES name join the one left once the other merged into it")
    func ambiguityResolved() async throws {
        let fixture = try ImportFixture()
        let store = fixture.store
        let kept = try await Self.existingTeam(store)
        let merged = try await Self.existingTeam(store)
        let summary = try await Self.importInterrupted(
            store, by: Interruption { try await Self.mergeAway(merged, into: kept, in: store) })
        #expect(summary.added == 2)
        #expect(summary.warnings.isEmpty, "\(summary.warnings)")
        let team = try await Self.team(in: store)
        #expect(team.groups == 1)
        #expect(team.members == ["x0", "x1"])
    }

    @Test("Two groups of the name to the end: the cards join neither, with a warning each")
    func ambiguityStays() async throws {
        let fixture = try ImportFixture()
        let store = fixture.store
        _ = try await Self.existingTeam(store)
        _ = try await Self.existingTeam(store)
        let summary = try await fixture.importText(Self.file, batchSize: 1)
        #expect(summary.added == 2)
        #expect(summary.warnings.filter { $0.key == "CATEGORIES" }.count == 2, "\(summary.warnings)")
        let team = try await Self.team(in: store)
        #expect(team.groups == 2)
        #expect(team.members.isEmpty)
    }

    @Test("Cards of an ambiguous name whose groups were all deleted meanwhile are reported, not silently groupless")
    func ambiguousGroupsDeleted() async throws {
        let fixture = try ImportFixture()
        let store = fixture.store
        let first = try await Self.existingTeam(store)
        let second = try await Self.existingTeam(store)
        let summary = try await Self.importInterrupted(
            store,
            by: Interruption {
                let request = SaveRequest(operations: [
                    .deleteGroup(identifier: first), .deleteGroup(identifier: second),
                ])
                _ = try await store.execute(request)
            })
        #expect(summary.added == 2)
        let messages = summary.warnings.filter { $0.key == "CATEGORIES" }.map(\.message)
        #expect(messages.count == 2, "\(messages)")
        #expect(messages.allSatisfy { $0.contains("deleted while the import ran") }, "\(messages)")
    }
}
