import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

@Suite("Import with --link-duplicates")
struct LinkDuplicatesTests {
    static let existing = """
        BEGIN:VCARD
        VERSION:3.0
        FN:Ada Lovelace
        N:Lovelace;Ada;;;
        EMAIL:ada@example.com
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:Charles Babbage
        N:Babbage;Charles;;;
        TEL:+44 20 7946 0000
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:Mary Somerville
        N:Somerville;Mary;;;
        END:VCARD
        """

    static let incoming = """
        BEGIN:VCARD
        VERSION:3.0
        FN:Augusta Ada King
        N:King;Augusta Ada;;;
        EMAIL:ADA@Example.com
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:C. Babbage
        N:Babbage;C.;;;
        TEL:(020) 7946 0000
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:Mary Somerville
        N:Somerville;Mary;;;
        TITLE:Scientist
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:Nobody Else
        N:Else;Nobody;;;
        END:VCARD
        """

    @discardableResult
    func importing(_ text: String, into store: any ContactStore, container: String?, link: Bool) async throws
        -> VCardImporter.Summary
    {
        var importer = VCardImporter(store: store, containerIdentifier: container, transactionAuthor: "import")
        importer.linkDuplicates = link
        return try await importer.importCards(Data(text.utf8))
    }

    @Test("Cards that are the same person as a contact of another container are linked, not merged")
    func links() async throws {
        let fixture = try ImportFixture()
        let store = fixture.store
        let work = try await store.addContainer(Container(name: "Work", type: .cardDAV)).identifier
        try await importing(Self.existing, into: store, container: nil, link: false)
        let summary = try await importing(Self.incoming, into: store, container: work, link: true)
        #expect(summary.added == 4)
        #expect(summary.linked == 3)
        #expect(try await store.contactCount() == 7)

        var request = ContactFetchRequest(keysToFetch: [.givenName, .familyName], sortOrder: .familyName)
        request.unifyResults = true
        let unified = try await store.contacts(request).contacts
        #expect(unified.map(\.familyName) == ["Babbage", "Else", "Lovelace", "Somerville"])
        #expect(unified.filter(\.isUnified).count == 3)
        // The existing card was named first, so its name shows.
        #expect(unified.first { $0.familyName == "Lovelace" }?.givenName == "Ada")

        // Importing the same file again into the same container links nothing more and duplicates nothing.
        let again = try await importing(Self.incoming, into: store, container: work, link: true)
        #expect(again.linked == 0)
        #expect(try await store.contactCount() == 7)
    }

    @Test("Without the flag, or within one container, nothing is linked")
    func noLinks() async throws {
        let fixture = try ImportFixture()
        let store = fixture.store
        try await importing(Self.existing, into: store, container: nil, link: false)
        let sameContainer = try await importing(Self.incoming, into: store, container: nil, link: true)
        #expect(sameContainer.linked == 0)
        let work = try await store.addContainer(Container(name: "Work", type: .cardDAV)).identifier
        let unasked = try await importing(
            Self.incoming.replacingOccurrences(of: "Nobody", with: "Somebody"), into: store, container: work,
            link: false)
        #expect(unasked.linked == 0)
        #expect(
            try await store.linkGroups(
                containing: try await store.contacts(
                    ContactFetchRequest(keysToFetch: [], page: .first(100))
                ).contacts.map(\.identifier)
            ).isEmpty)
    }
}
