import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore
@testable import CarnetVCard

/// An import is background work: its parsing and its inserts run on a ``BackgroundExecutor``'s thread, at a lower
/// priority than the requests served beside it (a save to another book kept its p99 within 2× idle only so).
@Suite("Background import")
struct BackgroundImportTests {
    @Test("Every insert of an import runs on the background thread", arguments: [false, true])
    func insertsRunInBackground(strict: Bool) async throws {
        let placements = PlacementLog(prefix: "INSERT INTO")
        let store = try await StoreFixture(.onDiskWAL) { $0.statementTrace = placements.trace }.sqliteStore
        placements.reset()
        var cards = ""
        for number in 0..<25 {
            cards += "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Card \(number)\r\nN:\(number);Card;;;\r\n"
            cards += "CATEGORIES:Team\r\nEMAIL:c\(number)@example.com\r\nEND:VCARD\r\n"
        }
        var importer = VCardImporter(store: store, transactionAuthor: "import", strict: strict)
        importer.batchSize = 10
        // Other tests' imports may hold the background threads; this one must get its own.
        let summary = try await BackgroundExecutor.$ignoresThreadLimit.withValue(true) {
            try await importer.importCards(Data(cards.utf8))
        }
        #expect(summary.added == 25 && summary.groupsCreated == 1)
        let seen = placements.all
        #expect(seen.count >= 25 && seen.allSatisfy { $0 })
        #expect(!BackgroundExecutor.runsOnCurrentThread)
        try await store.close()
    }
}
