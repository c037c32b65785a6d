import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

/// `abc` and `urn:uuid:abc` are two valid identifiers, so two contacts. An export named both `urn:uuid:abc` (a UID
/// that had the prefix was written as is) and the import read every reference as its bare UID, so restoring a book
/// swapped their groups (an outside tester's round-8 bug-04). References now carry the prefix once more than the
/// UID they name, and are matched exactly before the bare UID.
@Suite("UIDs with and without urn:uuid:")
struct PrefixedUIDTests {
    static func card(_ uid: String, _ family: String, _ extra: String = "") -> String {
        "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:\(uid)\r\nN:\(family);Ann;;;\r\n\(extra)END:VCARD\r\n"
    }

    @Test(
        "An export restores the groups of `abc` and `urn:uuid:abc` to each", arguments: [VCardWriter.Version.v4, .v3])
    func groups(version: VCardWriter.Version) async throws {
        let book = try ImportFixture()
        var request = SaveRequest(transactionAuthor: "test")
        for (index, identifier) in ["abc", "urn:uuid:abc", "urn:uuid:urn:uuid:abc"].enumerated() {
            var contact = Contact(identifier: identifier)
            contact.givenName = "C\(index)"
            request.add(contact)
            request.add(Group(identifier: "g\(index)", name: "G\(index)"))
            request.addMember(identifier, toGroup: "g\(index)")
        }
        try await book.store.execute(request)
        let original = try await SameNameGroupTests.snapshot(book)
        let text = try await book.export(version, groups: .cards)
        for (strict, batchSize) in [(false, 1000), (false, 1), (true, 1000)] {
            let context = "\(version), strict \(strict), batch size \(batchSize)"
            let copy = try ImportFixture()
            let summary = try await copy.importText(text, strict: strict, batchSize: batchSize)
            #expect(summary.warnings.isEmpty, "\(context): \(summary.warnings)")
            #expect(try await SameNameGroupTests.snapshot(copy) == original, "\(context)")
        }
    }

    @Test("A reference names the UID after one prefix first, then the bare UID, in the file and in the store")
    func references() async throws {
        let related =
            "RELATED;TYPE=friend:urn:uuid:abc\r\nRELATED;TYPE=friend:urn:uuid:urn:uuid:abc\r\n"
            + "RELATED;TYPE=friend:urn:uuid:xyz\r\nRELATED;TYPE=friend:urn:uuid:urn:uuid:xyz\r\n"
        // xyz is known only as `urn:uuid:xyz`, as 4.0 servers write UIDs: both references find it (one relation:
        // the same label and name are not repeated).
        let people = Self.card("abc", "One") + Self.card("urn:uuid:abc", "Two") + Self.card("urn:uuid:xyz", "Xyz")
        let expected = ["Ann One", "Ann Two", "Ann Xyz"]
        for (strict, batchSize) in [(false, 1000), (false, 1), (true, 1000)] {
            let context = "strict \(strict), batch size \(batchSize)"
            // Named in the file, before and after the cards.
            for file in [people + Self.card("bo", "Bo", related), Self.card("bo", "Bo", related) + people] {
                let fixture = try ImportFixture()
                let summary = try await fixture.importText(file, strict: strict, batchSize: batchSize)
                #expect(summary.warnings.isEmpty, "\(context): \(summary.warnings)")
                let bo = try await fixture.contacts().first { $0.familyName == "Bo" }
                #expect(bo?.contactRelations.map(\.value.name) == expected, "\(context)")
            }
            // Named in the store by a later import.
            let fixture = try ImportFixture()
            try await fixture.importText(people)
            let summary = try await fixture.importText(Self.card("bo", "Bo", related), strict: strict)
            #expect(summary.warnings.isEmpty, "\(context): \(summary.warnings)")
            let bo = try await fixture.contacts().first { $0.familyName == "Bo" }
            #expect(bo?.contactRelations.map(\.value.name) == expected, "\(context)")
        }
    }

    @Test("A group card's members sharing a bare UID are written with one more prefix than their UIDs")
    func written() {
        let text = VCardWriter(version: .v4).writeGroup(
            name: "G", uid: "g", memberUIDs: ["abc", "urn:uuid:abc", "URN:UUID:abc"])
        let members = text.split(separator: "\r\n").filter { $0.hasPrefix("MEMBER:") }
        #expect(members == ["MEMBER:urn:uuid:abc", "MEMBER:urn:uuid:urn:uuid:abc", "MEMBER:urn:uuid:URN:UUID:abc"])
        #expect(members.map { UIDReference.named(String($0.dropFirst(7))) } == ["abc", "urn:uuid:abc", "URN:UUID:abc"])
    }

    /// RFC 6350's MEMBER is the member's UID as a URI: a UID that is one already is written as it is, which other
    /// clients match (an export wrote `urn:uuid:urn:uuid:…` for every `urn:uuid:` UID, and they found no member).
    @Test("A member whose UID is a URI is written as it is, unless another card shares its bare UID")
    func uriUIDs() async throws {
        let uuid = "0b8e9a4c-4c4b-4f7e-9f1e-2a3b4c5d6e7f"
        let writer = VCardWriter(version: .v4)
        let taken: Set<String> = ["urn:uuid:\(uuid)", "http://example.com/p/1", "urn:uuid:shared", "shared"]
        let text = writer.writeGroup(
            name: "G", uid: "g",
            memberUIDs: ["urn:uuid:\(uuid)", "http://example.com/p/1", "urn:uuid:shared", "plain"],
            isTaken: taken.contains)
        let members = text.split(separator: "\r\n").filter { $0.hasPrefix("MEMBER:") }
        #expect(
            members == [
                "MEMBER:urn:uuid:\(uuid)", "MEMBER:http://example.com/p/1", "MEMBER:urn:uuid:urn:uuid:shared",
                "MEMBER:urn:uuid:plain",
            ])

        // Through the exporter, and back: each membership comes back.
        let book = try ImportFixture()
        let file =
            Self.card("urn:uuid:\(uuid)", "Uuid") + Self.card("http://example.com/p/1", "Web")
            + "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nFN:Team\r\nUID:team\r\n"
            + "MEMBER:urn:uuid:\(uuid)\r\nMEMBER:http://example.com/p/1\r\nEND:VCARD\r\n"
        try await book.importText(file)
        let exported = try await book.export(.v4, groups: .cards)
        let written = exported.split(separator: "\r\n").filter { $0.hasPrefix("MEMBER:") }.sorted()
        #expect(written == ["MEMBER:http://example.com/p/1", "MEMBER:urn:uuid:\(uuid)"], "\(exported)")
        let copy = try ImportFixture()
        let summary = try await copy.importText(exported)
        #expect(summary.warnings.isEmpty, "\(summary.warnings)")
        // The URIs are no Carnet identifiers: each import gives the contacts new ones, and they keep their UIDs.
        func memberships(_ fixture: ImportFixture) async throws -> [String] {
            let contacts = try await fixture.contacts()
            let groups = try await fixture.store.groups(ofContacts: contacts.map(\.identifier))
            return contacts.map { "\($0.familyName) \((groups[$0.identifier] ?? []).map(\.name))" }.sorted()
        }
        #expect(try await memberships(copy) == ["Uuid [\"Team\"]", "Web [\"Team\"]"])
        #expect(try await memberships(book) == memberships(copy))
    }
}
