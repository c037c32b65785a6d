import CarnetStoreSQLite
import Foundation
import Synchronization
import Testing

@testable import CarnetStore
@testable import CarnetVCard

/// An import is background work: its parsing and its inserts run on a ``BackgroundExecutor``'s thread, at a lower
/// priority than the requests served beside it (a save to another book kept its p99 within 2× idle only so).
@Suite("Background import")
struct BackgroundImportTests {
    @Test("Every insert of an import runs on the background thread", arguments: [false, true])
    func insertsRunInBackground(strict: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let onBackground = Mutex<[Bool]>([])
        var configuration = StoreConfiguration()
        configuration.statementTrace = { sql in
            guard sql.hasPrefix("INSERT INTO") else { return }
            onBackground.withLock { $0.append(BackgroundExecutor.runsOnCurrentThread) }
        }
        let store = try SQLiteStore.open(
            path: directory.appendingPathComponent("carnet.sqlite").path, configuration: configuration)
        onBackground.withLock { $0.removeAll() }  // the schema's own rows, written as the file was created
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
        let seen = onBackground.withLock { $0 }
        #expect(seen.count >= 25 && seen.allSatisfy { $0 })
        #expect(!BackgroundExecutor.runsOnCurrentThread)
        try await store.close()
    }
}
