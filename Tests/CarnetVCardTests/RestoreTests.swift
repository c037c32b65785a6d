import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

/// Issue 15, point 5: restoring from a backup export after contacts were deleted. Identifiers are never reused,
/// so the card gets a new one and keeps its UID, which export writes and later imports find it by.
@Suite("Restore from a backup")
struct RestoreTests {
    @Test("A card whose UID names a deleted contact imports under a new identifier and keeps its UID")
    func deletedUID() async throws {
        let fixture = try ImportFixture()
        try await fixture.importText(Corpus.appleContacts + Corpus.googleContacts)
        let backup = try await fixture.export()
        let deleted = try await fixture.contacts()
        var request = SaveRequest()
        for contact in deleted { request.delete(contactWithIdentifier: contact.identifier) }
        try await fixture.store.execute(request)

        let summary = try await fixture.importText(backup)
        #expect(summary.added == 2 && summary.skipped.isEmpty)
        let restored = try await fixture.contacts()
        #expect(Set(restored.map(\.identifier)).isDisjoint(with: deleted.map(\.identifier)))
        #expect(restored.map(\.givenName) == ["John", "María"])
        // The UIDs, the Apple one and the one derived for Google's UID-less card, come back out as they were.
        #expect(try await fixture.export() == backup)
        // And a later import of the backup finds the restored contacts.
        let again = try await fixture.importText(backup)
        #expect(again.unchanged == 2 && again.added == 0)
        // So does the original Google file, whose card has no UID.
        let google = try await fixture.importText(Corpus.googleContacts)
        #expect(google.unchanged == 1)
    }
}
