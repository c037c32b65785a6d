import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// An outside tester's restore (AE-bug-01): a book put back from a file-system snapshot keeps its store identifier
/// and hands out its positions again, for other commits. A replica that had synced past the snapshot got
/// `TOKEN_AHEAD` only until the new commits passed its token; from then on its token was taken as a point of the
/// new history, and the replica kept what the restore lost and missed what came before its position, silently.
@Suite("Restored history")
struct RestoredHistoryTests {
    static let kinds = StoreKind.available.filter { $0 != .inMemory }

    @Test("A replica past a restored snapshot syncs in full, however far the new history goes", arguments: kinds)
    func pastTheSnapshot(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        var store = fixture.store
        try await store.add([Make.person("Kept", "Before")])
        var behind = SyncReplica()
        try await behind.sync(store)
        let copy = try await fixture.copyState(of: &store)

        try await store.add([Make.person("Lost1", "After")])
        try await store.add([Make.person("Lost2", "After")])
        try await store.add([Make.person("Lost3", "After")])
        var ahead = SyncReplica()
        try await ahead.sync(store)
        let aheadToken = try #require(ahead.token)

        store = try await fixture.restoreState(copy, replacing: store)
        // Before the new history reaches the token, it is ahead; after, it stands on another commit. Both times the
        // replica must start over, and end up with what the store holds.
        for round in 0..<4 {
            try await store.add([Make.person("New\(round)", "Restored")])
            let page = try await store.changeHistory(
                ChangeHistoryFetchRequest(startingToken: aheadToken, contactKeys: [.givenName]))
            #expect(page.events.first?.kind == .dropEverything, "round \(round)")
            #expect(page.events.first?.dropReason == .tokenAhead, "round \(round)")
        }
        try await ahead.sync(store)
        let state = try await StoreState.read(store, groupChanges: false)
        #expect(ahead.contacts == state.contacts)
        #expect(Set(state.contacts.values) == ["Kept", "New0", "New1", "New2", "New3"])

        // A replica that stood before the snapshot shares its history: it continues without a full sync.
        let page = try await store.changeHistory(
            ChangeHistoryFetchRequest(startingToken: behind.token, contactKeys: [.givenName]))
        #expect(!page.events.contains { $0.kind == .dropEverything })
        try await behind.sync(store)
        #expect(behind.contacts == state.contacts)
        try await store.close()
    }

    @Test("The oldest position keeps its commit's mark through compaction", arguments: kinds)
    func compactedMark(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        var store = fixture.store
        try await store.add([Make.person("Kept", "Before")])
        let copy = try await fixture.copyState(of: &store)
        try await store.add([Make.person("Lost", "After")])
        let lostToken = try await store.currentHistoryToken()

        store = try await fixture.restoreState(copy, replacing: store)
        try await store.add([Make.person("New", "Restored")])
        let currentToken = try await store.currentHistoryToken()
        #expect(try await store.compactHistory(olderThan: Date().addingTimeInterval(60)) > 0)
        // Both tokens stand at the oldest position now, whose events are gone: only the mark tells them apart.
        #expect(try await store.oldestValidHistoryToken() == currentToken)
        let current = try await store.changeHistory(
            ChangeHistoryFetchRequest(startingToken: currentToken, contactKeys: [.givenName]))
        #expect(current.events.isEmpty)
        let lost = try await store.changeHistory(
            ChangeHistoryFetchRequest(startingToken: lostToken, contactKeys: [.givenName]))
        #expect(lost.events.first?.dropReason == .tokenAhead)
        #expect(Set(lost.events.compactMap { $0.contact?.givenName }) == ["Kept", "New"])
        try await store.close()
    }

    @Test("Every way a token is handed out carries the mark that its page checks", arguments: kinds)
    func everyTokenCarriesItsMark(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        var store = fixture.store
        try await store.add([Make.person("Kept", "Before")])
        let copy = try await fixture.copyState(of: &store)
        let changes = await store.changes()
        var iterator = changes.makeAsyncIterator()
        let saved = try await store.add([Make.person("Lost", "After")])
        let notified = try #require(await iterator.next()).token
        let paged = try await store.changeHistory(ChangeHistoryFetchRequest(startingToken: nil, contactKeys: [])).token
        let current = try await store.currentHistoryToken()
        store = try await fixture.restoreState(copy, replacing: store)
        try await store.add([Make.person("New", "Restored")])
        for (name, token) in [
            ("save", saved.historyToken), ("notification", notified), ("page", paged), ("current", current),
        ] {
            let page = try await store.changeHistory(
                ChangeHistoryFetchRequest(startingToken: token, contactKeys: [.givenName]))
            #expect(page.events.first?.dropReason == .tokenAhead, "\(name)")
        }
        try await store.close()
    }
}
