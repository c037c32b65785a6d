import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

/// Issue 15, point 3: `RELATED:urn:uuid:…` becomes a relation with the named card's name, and the reference is
/// kept for the round trip.
@Suite("RELATED by UID")
struct RelatedUIDTests {
    @Test("A forward reference resolves to the later card's name; an unknown UID is kept with a warning")
    func forwardReference() async throws {
        let fixture = try ImportFixture()
        let summary = try await fixture.importText(FidelityCorpus.cardDAVGroupAndRelated)
        #expect(summary.warnings.map(\.key) == ["RELATED"])
        #expect(summary.warnings.first?.line == 18)
        let marta = try await fixture.contact(named: "Marta")
        #expect(marta.contactRelations.map(\.value.name) == ["Tomasz Nowak"])
        #expect(marta.contactRelations.map(\.label) == [ContactLabel.spouse])
        #expect(
            marta.vCardProperties.map(\.value) == [
                "RELATED;TYPE=spouse:urn:uuid:a1b2c3d4-0000-4000-8000-000000000002",
                "RELATED;TYPE=friend:urn:uuid:ffffffff-0000-4000-8000-00000000dead",
            ])
        // Re-importing the export neither repeats the relation nor loses the reference.
        let exported = try await fixture.export(.v4)
        #expect(exported.contains("RELATED;VALUE=text;TYPE=spouse:Tomasz Nowak\r\n"))
        let again = try await fixture.importText(exported)
        #expect(again.added == 0 && again.updated == 0)
        #expect(try await fixture.contact(named: "Marta").contactRelations.count == 1)
    }

    /// `urn:uuid:` written twice named the card when found in the store (lenient: by its kept UID, once saved) but
    /// not in the file (strict finds it there only): the two imports saved different relations.
    @Test("A reference with its urn:uuid: prefix written twice names the card, strict or not")
    func doublePrefix() async throws {
        let file = """
            BEGIN:VCARD\r
            VERSION:4.0\r
            FN:Acme Corp\r
            KIND:org\r
            UID:urn:uuid:7dc40411-8ab3-b1b7-bf98-d4263b9da1d4\r
            END:VCARD\r
            BEGIN:VCARD\r
            VERSION:4.0\r
            N:Lee;Ann;;;\r
            RELATED;TYPE=spouse:urn:uuid:urn:uuid:7dc40411-8ab3-b1b7-bf98-d4263b9da1d4\r
            UID:ann-1\r
            END:VCARD\r

            """
        for strict in [false, true] {
            let fixture = try ImportFixture()
            let summary = try await fixture.importText(file, strict: strict)
            #expect(!summary.warnings.contains { $0.key == "RELATED" }, "strict: \(strict)")
            let ann = try await fixture.contact(named: "Ann")
            #expect(ann.contactRelations.map(\.value.name) == ["Acme Corp"], "strict: \(strict)")
        }
    }

    @Test("A reference to a contact already in the store")
    func storedTarget() async throws {
        let fixture = try ImportFixture()
        try await fixture.importText(Corpus.cardDAV)
        let text = """
            BEGIN:VCARD
            VERSION:4.0
            FN:Piotr Kowalski
            RELATED;TYPE=spouse:urn:uuid:4fbe8971-0bc3-424c-9c26-36c3e1eff6b1
            END:VCARD

            """
        let summary = try await fixture.importText(text)
        #expect(summary.warnings.isEmpty)
        let piotr = try await fixture.contact(named: "Piotr")
        #expect(piotr.contactRelations.map(\.value.name) == ["Anna Maria Kowalska"])
    }

    /// A 101st relation refused the card whole ("invalid values: contactRelations"), its NOTE and all.
    @Test("References past the store's 100 relations stay kept lines with a warning, before and after their cards")
    func pastTheRelationLimit() async throws {
        let card = { (lines: [String]) in
            "BEGIN:VCARD\r\nVERSION:4.0\r\n" + lines.map { $0 + "\r\n" }.joined() + "END:VCARD\r\n"
        }
        let friends = (0..<102).map { card(["FN:Friend \($0)", "N:\($0);Friend;;;", "UID:friend-\($0)"]) }
        let references = (0..<102).map { "RELATED;TYPE=friend:urn:uuid:friend-\($0)" }
        let hub = card(["FN:Hub", "N:Hub;Hana;;;", "NOTE:keep me", "UID:hub"] + references)
        // Forward references (resolved after every card is in) and backward ones (while planning).
        for text in [hub + friends.joined(), friends.joined() + hub] {
            let fixture = try ImportFixture()
            let summary = try await fixture.importText(text)
            #expect(summary.skipped.isEmpty && summary.added == 103, "\(summary.skipped)")
            #expect(summary.warnings.map(\.key) == ["RELATED", "RELATED"])
            let hana = try await fixture.contact(named: "Hana")
            #expect(hana.note == "keep me" && hana.contactRelations.count == StoreLimits.valuesPerProperty)
            #expect(hana.vCardProperties.map(\.value) == references)
        }
    }

    /// Two cards of one file with one UID: the second updates the contact the first made (a card whose UID is
    /// known updates its contact), which replaced the first card's values without a word.
    @Test("A card repeating an earlier card's UID in the same file is reported")
    func repeatedUID() async throws {
        let card = { (lines: [String]) in
            "BEGIN:VCARD\r\nVERSION:4.0\r\n" + lines.map { $0 + "\r\n" }.joined() + "END:VCARD\r\n"
        }
        let fixture = try ImportFixture()
        let summary = try await fixture.importText(
            card(["FN:Dup One", "N:One;Dup;;;", "UID:dup-1", "TEL:+1 555 0100"])
                + card(["FN:Dup Two", "N:Two;Dup;;;", "UID:dup-1"]))
        #expect(summary.warnings.map { "\($0.line) \($0.key)" } == ["8 UID"])
        #expect(summary.warnings.first?.message.contains("line 1") == true)
        #expect(try await fixture.contacts().map(\.familyName) == ["Two"])
    }
}
