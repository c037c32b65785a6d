import CarnetStoreTestSupport
import Testing

@testable import CarnetStore
@testable import CarnetStoreSQLite

/// A write made from a background executor runs its SQL on that thread, at its priority, not on a writer thread.
@Suite("Background writes")
struct BackgroundWriteTests {
    @Test("A save's statements run on the background thread that asked for it, and others' on the writer's")
    func savesRunWhereAsked() async throws {
        let placements = PlacementLog(prefix: "INSERT INTO contact")
        let store = try await StoreFixture(.onDiskWAL) { $0.statementTrace = placements.trace }.sqliteStore
        placements.reset()
        @Sendable func save(_ name: String) async throws {
            var request = SaveRequest(transactionAuthor: "background")
            var contact = Contact()
            contact.givenName = name
            request.add(contact)
            try await store.execute(request)
        }
        try await BackgroundExecutor.$ignoresThreadLimit.withValue(true) {
            try await BackgroundExecutor.run { try await save("Ada") }
        }
        let inBackground = placements.all
        try await save("Grace")
        let inForeground = placements.all.dropFirst(inBackground.count)
        #expect(!inBackground.isEmpty && inBackground.allSatisfy { $0 })
        #expect(!inForeground.isEmpty && inForeground.allSatisfy { !$0 })
        #expect(try await store.statistics().contacts == 2)
        try await store.close()
    }

    @Test("A store's other writes (here a new container) run on the background thread that asked for them")
    func otherWritesRunWhereAsked() async throws {
        let placements = PlacementLog(prefix: "INSERT INTO container")
        let store = try await StoreFixture(.onDiskWAL) { $0.statementTrace = placements.trace }.sqliteStore
        placements.reset()
        try await BackgroundExecutor.$ignoresThreadLimit.withValue(true) {
            try await BackgroundExecutor.run {
                try await store.addContainer(Container(name: "Imported", type: .cardDAV))
            }
        }
        try await store.addContainer(Container(name: "Other", type: .cardDAV))
        #expect(placements.all == [true, false])
        let names = try await store.containers().map(\.name)
        #expect(names.count == 3 && names.contains("Imported") && names.contains("Other"))
        try await store.close()
    }
}
