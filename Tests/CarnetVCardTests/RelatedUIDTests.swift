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

/// UUIDs compare without regard to case (RFC 9562), and writers differ in the case they use: a lower-case MEMBER
/// or RELATED named an upper-case UID as no card (an outside vCard fuzzer's find).
@Suite("UID references and case")
struct UIDReferenceCaseTests {
    static func card(_ given: String, uid: String, extra: String = "") -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lee;\(given);;;\r\nFN:\(given) Lee\r\n\(extra)UID:\(uid)\r\nEND:VCARD\r\n"
    }

    static func group(_ name: String, members: [String]) -> String {
        let lines = members.map { "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:\($0)\r\n" }.joined()
        return "BEGIN:VCARD\r\nVERSION:3.0\r\nX-ADDRESSBOOKSERVER-KIND:group\r\nN:\(name)\r\nFN:\(name)\r\n\(lines)"
            + "UID:B0000000-0000-4000-8000-00000000000B\r\nEND:VCARD\r\n"
    }

    /// A reviewer's find: each prefix taken off copied the rest, quadratic in a reference of many prefixes.
    @Test("A reference of a hundred thousand urn:uuid: prefixes is bared in one pass, by bytes")
    func manyPrefixes() {
        let many = String(repeating: "urn:uuid:", count: 100_000)
        #expect(UIDReference.bare(many + "x") == "x")
        #expect(Array(UIDReference.bare(many + "\u{301}y").utf8) == Array("\u{301}y".utf8))
        #expect(UIDReference.bare("URN:uuid:urn:UUID:") == "urn:UUID:")
        #expect(UIDReference.bare("plain") == "plain")
    }

    @Test("A MEMBER and a RELATED in another case name the card of the file, strict or not")
    func inFile() async throws {
        let uid = "A1B2C3D4-0000-4000-8000-0000000000AA"
        let file =
            Self.card("Ann", uid: uid)
            + Self.card("Bo", uid: "bo-1", extra: "RELATED;TYPE=friend:urn:uuid:\(uid.lowercased())\r\n")
            + Self.group("Team", members: [uid.lowercased()])
        for strict in [false, true] {
            let fixture = try ImportFixture()
            let summary = try await fixture.importText(file, strict: strict)
            #expect(!summary.warnings.contains { $0.key == "MEMBER" || $0.key == "RELATED" }, "strict: \(strict)")
            #expect(try await fixture.groupNames(of: "Ann") == ["Team"], "strict: \(strict)")
            #expect(try await fixture.contact(named: "Bo").contactRelations.map(\.value.name) == ["Ann Lee"])
        }
    }

    @Test("A MEMBER in another case names a stored contact, by its identifier or its kept UID")
    func inStore() async throws {
        let fixture = try ImportFixture()
        // One card whose UID becomes the contact's identifier, one whose lower-case UID is kept as written.
        let identifier = "A1B2C3D4-0000-4000-8000-0000000000AA"
        let kept = "c1b2c3d4-0000-4000-8000-0000000000cc"
        _ = try await fixture.importText(Self.card("Ann", uid: identifier) + Self.card("Cy", uid: kept))
        let summary = try await fixture.importText(
            Self.group("Team", members: [identifier.lowercased(), kept.uppercased()]))
        #expect(!summary.warnings.contains { $0.key == "MEMBER" })
        #expect(try await fixture.groupNames(of: "Ann") == ["Team"])
        #expect(try await fixture.groupNames(of: "Cy") == ["Team"])
    }

    @Test("UIDs other than UUIDs are compared as written")
    func otherUIDs() async throws {
        let fixture = try ImportFixture()
        let summary = try await fixture.importText(
            Self.card("Ann", uid: "Ann-1") + Self.group("Team", members: ["ann-1"]))
        #expect(summary.warnings.map(\.key) == ["MEMBER"])
        #expect(try await fixture.groupNames(of: "Ann").isEmpty)
    }
}
