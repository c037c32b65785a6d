import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

/// A card that repeats an earlier card's UID replaces that card's values, whether the two fall in one batch or
/// not, and in a strict import's one commit.
@Suite("Repeated UIDs")
struct RepeatedUIDTests {
    static func card(_ uid: String, _ family: String, _ given: String, _ extra: String = "") -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nN:\(family);\(given);;;\r\n\(extra)END:VCARD\r\n"
    }

    @Test("Two cards for a stored contact in one batch: the second's values, every key of them")
    func twoUpdatesInOneBatch() async throws {
        let fixture = try ImportFixture()
        try await fixture.importText(Self.card("u1", "Family4", "P26", "EMAIL:a@example.com\r\nCATEGORIES:C\r\n"))
        let file =
            Self.card("u1", "Family1", "P48", "EMAIL:b@example.com\r\nCATEGORIES:B\r\n")
            + Self.card("u1", "Family4", "P49", "EMAIL:c@example.com\r\nCATEGORIES:A\r\n")
        let summary = try await fixture.importText(file)
        // The first card, replaced by the second in the same batch, saves nothing; the second is compared with
        // the stored contact.
        #expect(summary.updated == 1 && summary.unchanged == 1)
        let contacts = try await fixture.contacts()
        #expect(contacts.count == 1)
        #expect(contacts.first?.familyName == "Family4")
        #expect(contacts.first?.givenName == "P49")
        #expect(contacts.first?.emailAddresses.map(\.value) == ["c@example.com"])
        #expect(try await fixture.groupNames(of: "P49") == ["A"])
        // The replaced card's CATEGORIES still make their group, as when the cards fall in two batches.
        #expect(try await fixture.store.groups().map(\.name).sorted() == ["A", "B", "C"])
        // A re-import changes nothing: both cards applied in turn changed the contact and its groups twice,
        // back to the same, on every import (an outside vCard fuzzer, its seed 44).
        let before = try await fixture.store.currentHistoryToken()
        let again = try await fixture.importText(file)
        #expect(again.updated == 0 && again.unchanged == 2)
        #expect(try await fixture.store.currentHistoryToken() == before)
    }

    @Test("A strict import of a file that repeats a UID commits, with the later card's values")
    func strictRepeat() async throws {
        let fixture = try ImportFixture()
        let summary = try await fixture.importText(
            Self.card("u1", "A", "One", "CATEGORIES:X\r\n") + Self.card("u1", "B", "Two", "CATEGORIES:Y\r\n"),
            strict: true)
        #expect(summary.added == 1)
        #expect(summary.updated == 1)
        let contacts = try await fixture.contacts()
        #expect(contacts.map(\.familyName) == ["B"])
        #expect(try await fixture.groupNames(of: "Two") == ["Y"])
    }

    @Test("A relation to a repeated UID names the card that ends up in the contact, across batches")
    func relationToRepeatedUID() async throws {
        for batchSize in [1, 1000] {
            let fixture = try ImportFixture()
            try await fixture.importText(
                Self.card("u15", "Family4", "P17")
                    + Self.card("u2", "Family1", "P33", "RELATED;TYPE=friend:urn:uuid:u15\r\n")
                    + Self.card("u15", "Refused", "P34"),
                batchSize: batchSize)
            let relations = try await fixture.contact(named: "P33").contactRelations.map(\.value.name)
            #expect(relations == ["P34 Refused"], "batch size \(batchSize)")
        }
    }

    @Test("A card replaced by a later one with its UID leaves no relation of its own behind")
    func replacedCardsRelations() async throws {
        for batchSize in [1, 1000] {
            let fixture = try ImportFixture()
            try await fixture.importText(
                Self.card("u22", "Family2", "P18", "RELATED;TYPE=friend:urn:uuid:u32\r\n")
                    + Self.card("u22", "Family2", "P40")
                    + Self.card("u32", "Family1", "P46"),
                batchSize: batchSize)
            #expect(try await fixture.contact(named: "P40").contactRelations.isEmpty, "batch size \(batchSize)")
        }
    }
    static func groupCard(_ uid: String, _ name: String, members: [String]) -> String {
        "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nUID:urn:uuid:\(uid)\r\nFN:\(name)\r\n"
            + members.map { "MEMBER:urn:uuid:\($0)\r\n" }.joined() + "END:VCARD\r\n"
    }

    @Test(
        "Two group cards with one UID: the later names the group and lists its members, and a re-import changes nothing"
    )
    func repeatedGroupCard() async throws {
        let fixture = try ImportFixture()
        let file =
            Self.card("m1", "One", "Ann") + Self.card("m2", "Two", "Bea")
            + Self.groupCard("team", "Team Old", members: ["m1"]) + Self.groupCard("team", "Team New", members: ["m2"])
        let summary = try await fixture.importText(file)
        #expect(summary.warnings.map(\.key) == ["UID"])
        // Before, the second card made a second group, and each re-import renamed the first back and forth.
        #expect(try await fixture.store.groups().map(\.name) == ["Team New"])
        #expect(try await fixture.groupNames(of: "Ann") == [])
        #expect(try await fixture.groupNames(of: "Bea") == ["Team New"])
        let before = try await fixture.store.currentHistoryToken()
        try await fixture.importText(file)
        #expect(try await fixture.store.currentHistoryToken() == before)
    }
    @Test("A repeat without CATEGORIES keeps the groups the card before it chose, in any batches")
    func repeatWithoutCategories() async throws {
        let file =
            Self.card("u5", "Family4", "P0", "CATEGORIES:C\r\n") + Self.card("u5", "Family2", "P3", "CATEGORIES:A\r\n")
            + Self.card("u5", "Refused", "P10")
        for batchSize in [1, 1000] {
            let fixture = try ImportFixture()
            try await fixture.importText(file, batchSize: batchSize)
            // Before, with one card a batch, the last card's entry replaced the second's, and C stayed.
            #expect(try await fixture.groupNames(of: "P10") == ["A"], "batch size \(batchSize)")
        }
    }
    /// At scale: each repeat forgot the earlier card's name by scanning every group card's name (a file of 20,000
    /// group cards and 20,000 repeats took 93 s in a release build, on a request path: `importVCards`).
    @Test("Thousands of group cards repeating UIDs: each group takes its last card's name")
    func manyRepeatedGroupCards() async throws {
        let count = 3000
        let uids = (1...count).map { String(format: "00000000-0000-0000-0000-%012X", $0) }
        var file = ""
        for round in 0..<2 {
            for (index, uid) in uids.enumerated() {
                file +=
                    "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nUID:\(uid)\r\nFN:Team \(round) \(index)\r\nEND:VCARD\r\n"
            }
        }
        let fixture = try ImportFixture()
        let summary = try await fixture.importText(file)
        #expect(summary.warnings.count == count)
        let names = Set(try await fixture.store.groups().map(\.name))
        #expect(names == Set((0..<count).map { "Team 1 \($0)" }))
    }
}
