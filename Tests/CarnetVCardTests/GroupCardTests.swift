import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

/// Issue 15, point 2: group cards import as groups with their members found by UID, and export writes groups
/// back in each version's form.
@Suite("Group cards")
struct GroupCardTests {
    @Test("Apple's X-ADDRESSBOOKSERVER-KIND:group: a group, members before and after it in the file")
    func appleGroup() async throws {
        let fixture = try ImportFixture()
        let summary = try await fixture.importText(FidelityCorpus.appleGroup)
        #expect(summary.added == 2 && summary.groupCards == 1 && summary.groupsCreated == 1)
        #expect(try await fixture.store.contactCount() == 2)
        let group = try #require(try await fixture.store.groups().first)
        #expect(group.name == "Book Club")
        #expect(group.identifier == "C0FFEE00-1111-4222-8333-444455556666")
        #expect(try await fixture.groupNames(of: "Grace") == ["Book Club"])
        #expect(try await fixture.groupNames(of: "Ivo") == ["Book Club"])

        let apple = try await fixture.export(.v3, groups: .cards)
        #expect(apple.contains("X-ADDRESSBOOKSERVER-KIND:group\r\n"))
        #expect(apple.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:6F1C2B0A-0D7E-4B8E-9E43-2A1F5C3D4E01\r\n"))
        #expect(!apple.contains("CATEGORIES"))
        let v4 = try await fixture.export(.v4)
        #expect(v4.contains("KIND:group\r\nFN:Book Club\r\nMEMBER:urn:uuid:6F1C2B0A-0D7E-4B8E-9E43-2A1F5C3D4E01\r\n"))
        #expect(v4.contains("CATEGORIES:Book Club"))
        let v3 = try await fixture.export(.v3)
        #expect(v3.contains("CATEGORIES:Book Club") && !v3.contains("KIND"))
    }

    @Test("4.0 KIND:group with forward MEMBER references, and a member already in the store")
    func cardDAVGroupAndStoredMember() async throws {
        let fixture = try ImportFixture()
        try await fixture.importText(Corpus.cardDAV)
        let group = """
            BEGIN:VCARD
            VERSION:4.0
            UID:urn:uuid:00000000-0000-4000-8000-0000000000aa
            KIND:group
            FN:Neighbours
            MEMBER:urn:uuid:4fbe8971-0bc3-424c-9c26-36c3e1eff6b1
            MEMBER:urn:uuid:a1b2c3d4-0000-4000-8000-000000000001
            MEMBER:mailto:nobody@example.com
            END:VCARD

            """
        let summary = try await fixture.importText(group + FidelityCorpus.cardDAVGroupAndRelated)
        #expect(summary.groupCards == 2 && summary.added == 2)
        #expect(summary.warnings.map(\.key).sorted() == ["MEMBER", "RELATED"])
        // At the MEMBER line that names nothing, not the card's BEGIN.
        #expect(summary.warnings.first { $0.key == "MEMBER" }.map { [$0.line, $0.cardLine] } == [8, 1])
        #expect(try await fixture.groupNames(of: "Anna") == ["Neighbours", "Sąsiedzi"])
        #expect(try await fixture.groupNames(of: "Marta") == ["Climbing", "Neighbours"])
        #expect(try await fixture.groupNames(of: "Tomasz") == ["Climbing"])
    }

    /// A contact card of the same file took the UID first: the group took it too, its creation failed, and its
    /// name and members were lost while the summary counted it.
    @Test("A group card whose UID a contact of the same file took gets a new identifier, with its members")
    func groupUIDTakenByContact() async throws {
        let card = { (lines: [String]) in
            "BEGIN:VCARD\r\nVERSION:4.0\r\n" + lines.map { $0 + "\r\n" }.joined() + "END:VCARD\r\n"
        }
        for order in [true, false] {
            let fixture = try ImportFixture()
            let group = card(["KIND:group", "FN:Shared", "UID:shared-1", "MEMBER:urn:uuid:m1"])
            let contact = card(["FN:Paul Person", "N:Person;Paul;;;", "UID:shared-1"])
            let member = card(["FN:Mia Member", "N:Member;Mia;;;", "UID:m1"])
            let summary = try await fixture.importText(order ? group + contact + member : contact + member + group)
            #expect(summary.groupsCreated == 1 && summary.groupCards == 1 && summary.added == 2, "\(summary)")
            #expect(summary.warnings.isEmpty, "\(summary.warnings)")
            #expect(try await fixture.groupNames(of: "Mia") == ["Shared"])
            #expect(try await fixture.contact(named: "Paul").identifier == "shared-1")
        }
    }

    @Test("A group card's export reads back into the same groups (fresh store)")
    func exportReadsBack() async throws {
        let first = try ImportFixture()
        try await first.importText(FidelityCorpus.appleGroup)
        for (version, style) in [(VCardWriter.Version.v3, VCardExporter.GroupStyle.cards), (.v4, .cards), (.v4, .both)]
        {
            let text = try await first.export(version, groups: style)
            let second = try ImportFixture()
            try await second.importText(text)
            #expect(try await second.groupNames(of: "Ivo") == ["Book Club"])
            #expect(try await second.export(version, groups: style) == text)
        }
    }

    @Test("Strict: group cards, their forward members and RELATED UIDs, all in one commit")
    func strictLinks() async throws {
        let fixture = try ImportFixture()
        let summary = try await fixture.importText(
            FidelityCorpus.cardDAVGroupAndRelated + FidelityCorpus.appleGroup, strict: true)
        #expect(summary.added == 4 && summary.groupCards == 2 && summary.groupsCreated == 2)
        #expect(try await fixture.groupNames(of: "Marta") == ["Climbing"])
        #expect(try await fixture.groupNames(of: "Ivo") == ["Book Club"])
        #expect(try await fixture.contact(named: "Marta").contactRelations.map(\.value.name) == ["Tomasz Nowak"])
        let contacts = try await fixture.contacts()
        #expect(Set(contacts.map(\.revision)).count == 1)
    }

    @Test(
        "Re-importing Apple's export without a member takes that contact out of the group; a deleted group's UID is not reused"
    )
    func droppedMemberAndDeletedGroup() async throws {
        let fixture = try ImportFixture()
        try await fixture.importText(FidelityCorpus.appleGroup)
        let without = FidelityCorpus.appleGroup.replacingOccurrences(
            of: "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:9A8B7C6D-5E4F-4A3B-8C2D-1E0F9A8B7C6D\n", with: "")
        try await fixture.importText(without)
        #expect(try await fixture.groupNames(of: "Grace") == ["Book Club"])
        #expect(try await fixture.groupNames(of: "Ivo") == [])

        var delete = SaveRequest()
        delete.delete(groupWithIdentifier: "C0FFEE00-1111-4222-8333-444455556666")
        try await fixture.store.execute(delete)
        let summary = try await fixture.importText(FidelityCorpus.appleGroup)
        #expect(summary.groupsCreated == 1)
        let group = try #require(try await fixture.store.groups().first)
        #expect(group.name == "Book Club" && group.identifier != "C0FFEE00-1111-4222-8333-444455556666")
        #expect(try await fixture.groupNames(of: "Ivo") == ["Book Club"])
    }
    @Test("Re-importing a card whose CATEGORIES and a group card both give it groups changes nothing, in any batches")
    func reimportWithCategoriesAndGroupCard() async throws {
        let file =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:u4\r\nN:Family3;P4;;;\r\nCATEGORIES:C\r\nEND:VCARD\r\n"
            + "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nUID:urn:uuid:g0\r\nFN:Team 3\r\n"
            + "MEMBER:urn:uuid:u4\r\nEND:VCARD\r\n"
        for batchSize in [1, 1000] {
            let fixture = try ImportFixture()
            try await fixture.importText(file, batchSize: batchSize)
            #expect(try await fixture.groupNames(of: "P4") == ["C", "Team 3"])
            let before = try await fixture.store.currentHistoryToken()
            // Before, the card's batch took it out of Team 3 and the group card put it back: two commits.
            try await fixture.importText(file, batchSize: batchSize)
            #expect(try await fixture.store.currentHistoryToken() == before, "batch size \(batchSize)")
            #expect(try await fixture.groupNames(of: "P4") == ["C", "Team 3"])
        }
    }
}
