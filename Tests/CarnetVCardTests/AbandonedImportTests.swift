import CarnetStore
import Foundation
import Synchronization
import Testing

@testable import CarnetVCard

/// An import whose requester has gone stops before its next batch (a server's client that closed its connection).
@Suite("Abandoned imports")
struct AbandonedImportTests {
    static let file = (0..<50).map { "BEGIN:VCARD\r\nVERSION:3.0\r\nN:F\($0);G;;;\r\nEND:VCARD\r\n" }.joined()

    @Test("A lenient import keeps the batches saved before it was abandoned; a strict one writes nothing")
    func stops() async throws {
        for strict in [false, true] {
            let fixture = try ImportFixture()
            var importer = VCardImporter(store: fixture.store, transactionAuthor: "test", strict: strict)
            importer.batchSize = 10
            // Abandoned once the first batch is in (a strict import plans every batch before its one commit).
            let checks = Mutex(0)
            importer.isAbandoned = {
                checks.withLock {
                    $0 += 1
                    return $0 > 1
                }
            }
            await #expect(throws: CancellationError.self) { try await importer.importCards(Data(Self.file.utf8)) }
            #expect(try await fixture.store.contactCount() == (strict ? 0 : 10), "strict \(strict)")
        }
    }

    struct AccessEnded: Error {}

    /// An import already writing ran to its end after its caller's grant was withdrawn (an outside tester's find).
    @Test("An import whose caller lost access stops before its next batch, saying what it kept")
    func accessEnds() async throws {
        for strict in [false, true] {
            let fixture = try ImportFixture()
            var importer = VCardImporter(store: fixture.store, transactionAuthor: "test", strict: strict)
            importer.batchSize = 10
            let checks = Mutex(0)
            importer.checkAccess = {
                let count = checks.withLock {
                    $0 += 1
                    return $0
                }
                if count > 2 { throw AccessEnded() }
            }
            do {
                _ = try await importer.importCards(Data(Self.file.utf8))
                Issue.record("strict \(strict): the import ran to its end")
            } catch let stopped as VCardImportStopped {
                #expect(stopped.cause is AccessEnded)
                #expect(stopped.saved.added == (strict ? 0 : 20), "strict \(strict)")
                #expect(stopped.saved.historyToken.isEmpty == strict, "strict \(strict)")
            }
            #expect(try await fixture.store.contactCount() == (strict ? 0 : 20), "strict \(strict)")
            #expect(checks.withLock { $0 } == 3)
        }
    }
}
