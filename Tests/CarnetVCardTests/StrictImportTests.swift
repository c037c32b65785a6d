import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

/// Issue 15, point 4: a strict import is one transaction; any refusal, by the reader or the store, writes
/// nothing.
@Suite("Strict import")
struct StrictImportTests {
    static func card(_ uid: String, _ name: String, categories: String = "Team") -> String {
        """
        BEGIN:VCARD
        VERSION:3.0
        N:\(name);Ann;;;
        FN:Ann \(name)
        CATEGORIES:\(categories)
        UID:\(uid)
        END:VCARD

        """
    }

    @Test("A store refusal in the last batch (past the book's quota) writes nothing of the earlier batches")
    func storeRefusalWritesNothing() async throws {
        var configuration = StoreConfiguration()
        configuration.contactsPerBook = 5
        let fixture = try ImportFixture(configuration: configuration)
        let before = try await fixture.store.currentHistoryToken()
        let text = (1...6).map { Self.card("strict-\($0)", "N\($0)") }.joined()
        await #expect(throws: StoreError.self) {
            try await fixture.importText(text, strict: true, batchSize: 2)
        }
        #expect(try await fixture.store.contactCount() == 0)
        #expect(try await fixture.store.groups().isEmpty)
        #expect(try await fixture.store.currentHistoryToken() == before)
        // Leniently, the batches before the quota's are saved, and the last card is skipped.
        let summary = try await fixture.importText(text, batchSize: 2)
        #expect(summary.added == 5 && summary.skipped.map(\.line) == [36])
    }

    @Test("A card the reader refuses, after good ones: nothing written")
    func parseRefusalWritesNothing() async throws {
        let fixture = try ImportFixture()
        let text = Self.card("ok-1", "One") + "BEGIN:VCARD\nVERSION:3.0\nN;ENCODING=QUOTED-PRINTABLE:=ZZ\nEND:VCARD\n"
        await #expect(throws: VCardIssue.self) { try await fixture.importText(text, strict: true) }
        #expect(try await fixture.store.contactCount() == 0)
    }

    @Test("A good strict import commits once: one revision for every card, group and membership")
    func oneCommit() async throws {
        let fixture = try ImportFixture()
        let text = (1...7).map { Self.card("one-\($0)", "N\($0)") }.joined()
        let summary = try await fixture.importText(text, strict: true, batchSize: 3)
        #expect(summary.added == 7 && summary.groupsCreated == 1)
        let revisions = Set(try await fixture.contacts().map(\.revision))
        #expect(revisions.count == 1)
    }
}
