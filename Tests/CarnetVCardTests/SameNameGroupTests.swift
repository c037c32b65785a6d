import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

/// Groups that share a name — exactly, or only canonically ("José" in NFC and "Jose\u{301}" in NFD, two names to
/// the store) — came back from their book's own export as one group with the members of both: a group card took
/// "the group of its name" before its own UID, and CATEGORIES and group names were compared with `String`'s `==`
/// (an outside tester's bug-03).
@Suite("Groups of one name")
struct SameNameGroupTests {
    static let nfc = "Jos\u{E9}"
    static let nfd = "Jose\u{301}"
    static let groups = [("gA", "Friends"), ("gB", "Friends"), ("gC", nfc), ("gD", nfd)]

    /// A book with two groups named "Friends" and one of each spelling of "José", each with a member of its own,
    /// and a contact in all four.
    static func book() async throws -> ImportFixture {
        let fixture = try ImportFixture()
        var request = SaveRequest(transactionAuthor: "test")
        for (index, (identifier, name)) in groups.enumerated() {
            request.add(Group(identifier: identifier, name: name))
            var contact = Contact(identifier: "c\(index)")
            contact.givenName = "C\(index)"
            request.add(contact)
            request.addMember("c\(index)", toGroup: identifier)
        }
        var everywhere = Contact(identifier: "c4")
        everywhere.givenName = "C4"
        request.add(everywhere)
        for (identifier, _) in groups { request.addMember("c4", toGroup: identifier) }
        try await fixture.store.execute(request)
        return fixture
    }

    /// Every group, by identifier with its name's bytes, and every contact's groups by identifier.
    static func snapshot(_ fixture: ImportFixture) async throws -> [String] {
        let groups = try await fixture.store.groups().map { "group \($0.identifier) \(Array($0.name.utf8))" }
        let contacts = try await fixture.contacts()
        let memberships = try await fixture.store.groups(ofContacts: contacts.map(\.identifier))
        let members = contacts.map { contact in
            "contact \(contact.identifier) \((memberships[contact.identifier] ?? []).map(\.identifier).sorted())"
        }
        return (groups + members).sorted()
    }

    @Test(
        "An export with group cards restores every group of one name, with its identifier and members, in any batches",
        arguments: [
            (VCardWriter.Version.v4, VCardExporter.GroupStyle.both), (.v4, .cards), (.v3, .cards), (.v3, .both),
        ])
    func restore(version: VCardWriter.Version, style: VCardExporter.GroupStyle) async throws {
        let book = try await Self.book()
        let original = try await Self.snapshot(book)
        let text = try await book.export(version, groups: style)
        for (strict, batchSize) in [(false, 1000), (false, 1), (true, 1000)] {
            let context = "\(version) \(style), strict \(strict), batch size \(batchSize)"
            let copy = try ImportFixture()
            let summary = try await copy.importText(text, strict: strict, batchSize: batchSize)
            #expect(summary.groupsCreated == 4 && summary.groupCards == 4, "\(context): \(summary)")
            #expect(summary.warnings.isEmpty, "\(context): \(summary.warnings)")
            #expect(try await Self.snapshot(copy) == original, "\(context)")
            // Read back again, the export changes nothing, in the copy or in the book it came from.
            for fixture in [copy, book] {
                let before = try await fixture.store.currentHistoryToken()
                let again = try await fixture.importText(text, strict: strict, batchSize: batchSize)
                #expect(again.groupsCreated == 0 && again.warnings.isEmpty, "\(context): \(again)")
                #expect(try await fixture.store.currentHistoryToken() == before, "\(context)")
            }
        }
    }

    /// CATEGORIES alone cannot tell two groups of one exact name apart, but the two spellings of "José" are two
    /// names: a contact in both kept one, and the members of both went into one group.
    @Test("CATEGORIES alone: one group per name, byte for byte; read back into its book, nothing moves")
    func categoriesOnly() async throws {
        let book = try await Self.book()
        let original = try await Self.snapshot(book)
        let text = try await book.export(.v3, groups: .categories)
        let copy = try ImportFixture()
        try await copy.importText(text)
        let groups = try await copy.store.groups()
        let names = groups.map { Array($0.name.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        #expect(names == [Array("Friends".utf8), Array(Self.nfd.utf8), Array(Self.nfc.utf8)])
        let nfc = try #require(groups.first { Array($0.name.utf8) == Array(Self.nfc.utf8) })
        let nfd = try #require(groups.first { Array($0.name.utf8) == Array(Self.nfd.utf8) })
        let members = try await copy.store.members(ofGroups: [nfc.identifier, nfd.identifier], keysToFetch: [])
        #expect(members[nfc.identifier]?.map(\.identifier).sorted() == ["c2", "c4"])
        #expect(members[nfd.identifier]?.map(\.identifier).sorted() == ["c3", "c4"])

        // Into the book it came from, "Friends" names two groups and says not which: its contacts stay where they
        // are (before, all of them went into the first and left the second), and each card says so.
        let before = try await book.store.currentHistoryToken()
        let summary = try await book.importText(text)
        #expect(summary.unchanged == 5)
        #expect(summary.warnings.map(\.key) == ["CATEGORIES", "CATEGORIES", "CATEGORIES"], "\(summary.warnings)")
        #expect(try await Self.snapshot(book) == original)
        #expect(try await book.store.currentHistoryToken() == before)
    }

    static func card(_ uid: String, _ given: String, categories: String? = nil) -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nN:Lee;\(given);;;\r\n"
            + (categories.map { "CATEGORIES:\($0)\r\n" } ?? "") + "END:VCARD\r\n"
    }

    static func groupCard(_ uid: String, _ name: String, members: [String]) -> String {
        "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nUID:\(uid)\r\nFN:\(name)\r\n"
            + members.map { "MEMBER:urn:uuid:\($0)\r\n" }.joined() + "END:VCARD\r\n"
    }

    @Test("A CATEGORIES name two group cards give adds no group: their members decide; one card's name is its group")
    func categoriesBesideGroupCards() async throws {
        let file =
            Self.groupCard("t1", "Team", members: ["ann"]) + Self.groupCard("t2", "Team", members: ["bob"])
            + Self.groupCard("s1", "Solo", members: [])
            + Self.card("ann", "Ann", categories: "Team") + Self.card("bob", "Bob", categories: "Team,Solo")
            + Self.card("cy", "Cy", categories: "Team")
        for (strict, batchSize) in [(false, 1000), (false, 1), (true, 1000)] {
            let fixture = try ImportFixture()
            let summary = try await fixture.importText(file, strict: strict, batchSize: batchSize)
            #expect(summary.warnings.isEmpty, "\(summary.warnings)")
            let groups = try await fixture.store.groups()
            #expect(groups.map(\.identifier).sorted() == ["s1", "t1", "t2"])
            let members = try await fixture.store.members(ofGroups: ["t1", "t2", "s1"], keysToFetch: [])
            #expect(members["t1"]?.map(\.identifier) == ["ann"], "strict \(strict), batch size \(batchSize)")
            #expect(members["t2"]?.map(\.identifier) == ["bob"], "strict \(strict), batch size \(batchSize)")
            #expect(members["s1"]?.map(\.identifier) == ["bob"], "strict \(strict), batch size \(batchSize)")
            // Cy's CATEGORIES name both teams, and neither card lists Cy: no team.
            #expect(try await fixture.groupNames(of: "Cy") == [])
            let before = try await fixture.store.currentHistoryToken()
            try await fixture.importText(file, strict: strict, batchSize: batchSize)
            #expect(try await fixture.store.currentHistoryToken() == before)
        }
    }

    @Test("A CATEGORIES name several groups of the container bear, and no group card gives: no group, a warning")
    func categoriesAmbiguousInContainer() async throws {
        let fixture = try ImportFixture()
        var request = SaveRequest(transactionAuthor: "test")
        request.add(Group(identifier: "t1", name: "Team"))
        request.add(Group(identifier: "t2", name: "Team"))
        try await fixture.store.execute(request)
        try await fixture.importText(Self.card("ann", "Ann"))
        var member = SaveRequest(transactionAuthor: "test")
        member.addMember("ann", toGroup: "t2")
        try await fixture.store.execute(member)

        let file = Self.card("ann", "Ann", categories: "Team") + Self.card("dan", "Dan", categories: "Team,Other")
        let summary = try await fixture.importText(file)
        #expect(summary.warnings.map { "\($0.line) \($0.key)" } == ["1 CATEGORIES", "7 CATEGORIES"])
        // Ann stays in the team she is in (before, she moved to the first); Dan joins neither, and Other.
        let members = try await fixture.store.members(ofGroups: ["t1", "t2"], keysToFetch: [])
        #expect(members["t1"]?.isEmpty ?? true)
        #expect(members["t2"]?.map(\.identifier) == ["ann"])
        #expect(try await fixture.groupNames(of: "Dan") == ["Other"])
        let before = try await fixture.store.currentHistoryToken()
        try await fixture.importText(file)
        #expect(try await fixture.store.currentHistoryToken() == before)
    }

    /// An outside tester's find: a group card whose UID was a live contact's identifier took it for the group's,
    /// the group's creation failed, and the group was lost (strict: the whole import failed).
    @Test(
        "A group card whose UID is a stored contact's identifier gets a new one, with its members",
        arguments: [false, true])
    func groupCardUIDOfContact(strict: Bool) async throws {
        let fixture = try ImportFixture()
        var (contact, member) = (Contact(identifier: "a"), Contact(identifier: "m"))
        contact.givenName = "A"
        member.givenName = "M"
        try await fixture.store.add([contact, member])
        let file =
            "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nUID:a\r\nFN:G\r\nMEMBER:urn:uuid:m\r\nEND:VCARD\r\n"
        let summary = try await fixture.importText(file, strict: strict)
        #expect(summary.warnings.isEmpty, "\(summary.warnings)")
        let groups = try await fixture.store.groups(inContainer: nil)
        #expect(groups.map(\.name) == ["G"])
        #expect(groups.first?.identifier != "a")
        #expect(try await fixture.groupNames(of: "M") == ["G"])
    }

    /// An outside tester's find: an export of one group read back into its book took its contacts out of the
    /// groups the file says nothing of (cards only), and out of the other group of a shared name (CATEGORIES `X,X`).
    @Test("One group's export read back into its book changes nothing", arguments: VCardExporter.GroupStyle.allCases)
    func oneGroupsExportReadBack(style: VCardExporter.GroupStyle) async throws {
        let fixture = try ImportFixture()
        var contact = Contact(identifier: "a")
        contact.givenName = "Ann"
        var setup = SaveRequest(transactionAuthor: "test")
        setup.add(contact)
        setup.add(Group(identifier: "g1", name: "X"))
        setup.add(Group(identifier: "g2", name: "X"))
        setup.add(Group(identifier: "g3", name: "Y"))
        for group in ["g1", "g2", "g3"] { setup.addMember("a", toGroup: group) }
        try await fixture.store.execute(setup)
        let before = try await fixture.store.currentHistoryToken()
        for version in [VCardWriter.Version.v3, .v4] {
            var text = ""
            _ = try await VCardExporter(store: fixture.store, version: version, groupStyle: style).export(
                groupIdentifier: "g1"
            ) { text += $0 }
            let summary = try await fixture.importText(text)
            #expect(summary.unchanged == 1, "\(version) \(style): \(summary)")
            #expect(try await fixture.store.currentHistoryToken() == before, "\(version) \(style)")
        }
        #expect(try await fixture.groupNames(of: "Ann") == ["X", "X", "Y"])
    }
}
