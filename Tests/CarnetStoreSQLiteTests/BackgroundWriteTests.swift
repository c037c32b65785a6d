import CarnetStoreTestSupport
import Foundation
import Synchronization
import Testing

@testable import CarnetStore
@testable import CarnetStoreSQLite

/// A save made from a background executor runs its SQL on that thread, at its priority, not on a writer thread.
@Suite("Background writes")
struct BackgroundWriteTests {
    @Test("A save's statements run on the background thread that asked for it, and others' on the writer's")
    func savesRunWhereAsked() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let onBackground = Mutex<[Bool]>([])
        var configuration = StoreConfiguration()
        configuration.statementTrace = { sql in
            guard sql.hasPrefix("INSERT INTO contact") else { return }
            onBackground.withLock { $0.append(BackgroundExecutor.runsOnCurrentThread) }
        }
        let store = try SQLiteStore.open(
            path: directory.appendingPathComponent("carnet.sqlite").path, configuration: configuration)
        onBackground.withLock { $0.removeAll() }  // the schema's own rows, written as the file was created
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
        let inBackground = onBackground.withLock { $0 }
        try await save("Grace")
        let inForeground = onBackground.withLock { $0 }.dropFirst(inBackground.count)
        #expect(!inBackground.isEmpty && inBackground.allSatisfy { $0 })
        #expect(!inForeground.isEmpty && inForeground.allSatisfy { !$0 })
        #expect(try await store.statistics().contacts == 2)
        try await store.close()
    }
}
