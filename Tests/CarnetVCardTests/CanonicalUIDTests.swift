import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

/// A UID is an opaque identifier, compared byte for byte as the store finds contacts by it: two cards whose UIDs
/// are only canonically equivalent ("x-é" precomposed, "x-e\u{301}" decomposed) were one contact to the importer,
/// which compared them with `String`'s `==`, so a book's own export restored one contact of two (an outside
/// tester's bug-06).
@Suite("UIDs byte for byte")
struct CanonicalUIDTests {
    static let nfc = "x-\u{E9}"
    static let nfd = "x-e\u{301}"

    static func card(_ uid: String, _ family: String, _ extra: String = "") -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nN:\(family);Ann;;;\r\n\(extra)END:VCARD\r\n"
    }

    /// Each contact's family name and the bytes of the UIDs it keeps.
    static func keptUIDs(_ fixture: ImportFixture) async throws -> [String: [[UInt8]]] {
        var result: [String: [[UInt8]]] = [:]
        for contact in try await fixture.contacts() {
            result[contact.familyName, default: []] += contact.vCardProperties.compactMap {
                KeptVCardLine.uid(in: $0.value).map { Array($0.utf8) }
            }
        }
        return result
    }

    @Test("Two cards whose UIDs differ only in normalization are two contacts, found again by their own UIDs")
    func twoContacts() async throws {
        // Bo's relation names the precomposed UID: "Ann One", not the card read after it with the other spelling.
        let file =
            Self.card(Self.nfc, "One") + Self.card(Self.nfd, "Two")
            + Self.card("bo", "Bo", "RELATED;TYPE=friend:urn:uuid:\(Self.nfc)\r\n")
        let expected = ["One": [Array(Self.nfc.utf8)], "Two": [Array(Self.nfd.utf8)], "Bo": []]
        for (strict, batchSize) in [(false, 1000), (false, 1), (true, 1000)] {
            let context = "strict \(strict), batch size \(batchSize)"
            let fixture = try ImportFixture()
            let summary = try await fixture.importText(file, strict: strict, batchSize: batchSize)
            #expect(summary.added == 3 && summary.warnings.isEmpty, "\(context): \(summary)")
            #expect(try await Self.keptUIDs(fixture) == expected, "\(context)")
            let relations = try await fixture.contacts().first { $0.familyName == "Bo" }?.contactRelations
            #expect(relations?.map(\.value.name) == ["Ann One"], "\(context)")

            // Imported again, each card finds its own contact (the store was asked for both spellings at once, and
            // looked up one).
            let before = try await fixture.store.currentHistoryToken()
            let again = try await fixture.importText(file, strict: strict, batchSize: batchSize)
            #expect(again.unchanged == 3 && again.added == 0, "\(context): \(again)")
            #expect(try await fixture.store.currentHistoryToken() == before, "\(context)")

            // The book's export restores both into a fresh book.
            let copy = try ImportFixture()
            let restored = try await copy.importText(try await fixture.export(), strict: strict, batchSize: batchSize)
            #expect(restored.added == 3 && restored.warnings.isEmpty, "\(context): \(restored)")
            #expect(try await Self.keptUIDs(copy) == expected, "\(context)")
        }
    }

    @Test("A card that repeats a UID byte for byte still replaces the earlier card, and says so")
    func repeatByBytes() async throws {
        let file = Self.card(Self.nfc, "One") + Self.card(Self.nfd, "Two") + Self.card(Self.nfc, "Three")
        let fixture = try ImportFixture()
        let summary = try await fixture.importText(file)
        #expect(summary.warnings.map { "\($0.line) \($0.key)" } == ["11 UID"])
        #expect(try await Self.keptUIDs(fixture) == ["Three": [Array(Self.nfc.utf8)], "Two": [Array(Self.nfd.utf8)]])
    }

    /// The store answers a lookup by kept UID with the UID cut from its line by `Character`: `UID:` and a mark
    /// after it are one, and the mark was lost. The contact's own line says which UID it keeps.
    @Test("A UID that starts with a combining mark finds its contact again")
    func leadingCombiningMark() async throws {
        let uid = "\u{301}x"
        let fixture = try ImportFixture()
        try await fixture.importText(Self.card(uid, "One"))
        let again = try await fixture.importText(Self.card(uid, "One"))
        #expect(again.unchanged == 1 && again.added == 0, "\(again)")
        #expect(try await Self.keptUIDs(fixture) == ["One": [Array(uid.utf8)]])
    }

    @Test("A MEMBER names the card of its UID's spelling, in the file and in the store")
    func members() async throws {
        let group = { (members: [String]) in
            "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nUID:team\r\nFN:Team\r\n"
                + members.map { "MEMBER:urn:uuid:\($0)\r\n" }.joined() + "END:VCARD\r\n"
        }
        let fixture = try ImportFixture()
        try await fixture.importText(Self.card(Self.nfc, "One") + Self.card(Self.nfd, "Two") + group([Self.nfd]))
        let members = { () async throws -> [String] in
            try await fixture.store.members(ofGroups: ["team"], keysToFetch: .all)["team"]?.map(\.familyName).sorted()
                ?? []
        }
        #expect(try await members() == ["Two"])
        // Stored contacts, found by the UIDs they keep: both spellings in one lookup.
        let summary = try await fixture.importText(group([Self.nfc, Self.nfd]))
        #expect(summary.warnings.isEmpty, "\(summary.warnings)")
        #expect(try await members() == ["One", "Two"])
    }
}
