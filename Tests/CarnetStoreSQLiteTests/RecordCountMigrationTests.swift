import CarnetStore
import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStoreSQLite

/// Migration v7's stored count of contacts (`recordCount`), which the quota and `statistics()` read.
@Suite("Record count migration")
struct RecordCountMigrationTests {
    @Test("A store made before v7 gets its stored count of contacts", arguments: StoreKind.sqlite)
    func countMigration(_ kind: StoreKind) async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var request = SaveRequest(transactionAuthor: "t")
        for _ in 0..<4 { request.add(Contact()) }
        let store = try EarlierStore(kind, at: "v6", directory: directory, request: request).open()
        #expect(try await store.statistics().contacts == 4)
        var more = SaveRequest(transactionAuthor: "t")
        more.add(Contact())
        try await store.execute(more)
        #expect(try await store.statistics().contacts == 5)
        try await store.close()
    }
}
