import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

@Suite("Round trips")
struct RoundTripTests {
    static let corpus: [(String, String)] = [
        ("apple", Corpus.appleContacts), ("appleCompany", Corpus.appleCompany), ("google", Corpus.googleContacts),
        ("iPhone", Corpus.iPhone), ("cardDAV", Corpus.cardDAV), ("cardDAVOrganization", Corpus.cardDAVOrganization),
        ("unknown", Corpus.unknownProperties), ("phone21", Corpus.phone21), ("thunderbird", Corpus.thunderbird),
    ]

    @Test(arguments: [VCardWriter.Version.v3, .v4])
    func corpusCardsSurviveReadWriteRead(version: VCardWriter.Version) throws {
        for (name, text) in Self.corpus {
            let first = try readOne(text)
            let written = VCardWriter(version: version).write(first)
            let second = try readOne(written)
            #expect(values(of: second.contact) == values(of: first.contact), "\(name)")
            #expect(second.contact.identifier == first.contact.identifier, "\(name)")
            #expect(second.unmappedProperties == first.unmappedProperties, "\(name)")
            #expect(second.categories == first.categories, "\(name)")
            #expect(second.version == (version == .v3 ? "3.0" : "4.0"))
        }
    }

    @Test func outlookCardSurvives() throws {
        let data = try #require(Corpus.outlook.data(using: .isoLatin1))
        let first = try #require(try VCardReader().read(data).cards.first)
        let second = try readOne(VCardWriter().write(first))
        #expect(values(of: second.contact) == values(of: first.contact))
        #expect(second.unmappedProperties == first.unmappedProperties)
    }

    @Test(arguments: [VCardWriter.Version.v3, .v4])
    func everyKeySurvives(version: VCardWriter.Version) throws {
        let contact = fullContact()
        let text = VCardWriter(version: version).write(
            contact, categories: ["Friends", "A, B"],
            unmappedProperties: [
                "X-FOO;x-bar=baz:qux", "item1.X-THING:kept",
            ])
        let card = try readOne(text)
        #expect(values(of: card.contact) == values(of: contact))
        #expect(card.contact.identifier == contact.identifier)
        #expect(card.uid == contact.identifier)
        #expect(card.categories == ["Friends", "A, B"])
        #expect(card.unmappedProperties == ["X-FOO;x-bar=baz:qux", "item1.X-THING:kept"])
    }

    @Test(arguments: [VCardWriter.Version.v3, .v4])
    func organizationSurvives(version: VCardWriter.Version) throws {
        var contact = Contact(identifier: "org-1", contactType: .organization)
        contact.organizationName = "Initech"
        contact.departmentName = "TPS"
        let card = try readOne(VCardWriter(version: version).write(contact))
        #expect(values(of: card.contact) == values(of: contact))
    }

    @Test(arguments: [VCardWriter.Version.v3, .v4])
    func contactsWithOnlyANicknameOrOrganizationKeepTheirNames(version: VCardWriter.Version) throws {
        var nicknameOnly = Contact(identifier: "n-1")
        nicknameOnly.nickname = "Ziggy"
        var organizationOnly = Contact(identifier: "o-1")
        organizationOnly.organizationName = "Globex"
        var empty = Contact(identifier: "e-1", contactType: .organization)
        empty.nickname = "Nick"
        let text = VCardWriter(version: version).write([nicknameOnly, organizationOnly, empty])
        let (cards, issues) = try VCardReader().read(text)
        #expect(issues.isEmpty)
        #expect(cards.map { values(of: $0.contact) } == [nicknameOnly, organizationOnly, empty].map(values(of:)))
    }

    @Test func manyCardsInOneFileKeepTheirOrderAndLines() throws {
        let file = Corpus.all.joined()
        let (cards, issues) = try VCardReader().read(file)
        #expect(issues.isEmpty, "\(issues)")
        #expect(cards.count == Corpus.all.count)
        var expectedLine = 1
        for (card, text) in zip(cards, Corpus.all) {
            #expect(card.line == expectedLine)
            expectedLine += text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        }
        let written = VCardWriter().write(cards)
        let again = try VCardReader().read(written)
        #expect(again.issues.isEmpty)
        #expect(again.cards.map { values(of: $0.contact) } == cards.map { values(of: $0.contact) })
    }
}
