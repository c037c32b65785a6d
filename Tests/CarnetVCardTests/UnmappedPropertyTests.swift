import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

@Suite("Properties Carnet has no key for")
struct UnmappedPropertyTests {
    @Test func keptExactlyAsInTheFile() throws {
        let card = try readOne(Corpus.unknownProperties)
        #expect(card.contact.givenName == "Jane")
        #expect(card.contact.emailAddresses.map(\.value) == ["jane@example.com"])
        #expect(card.contact.birthday == nil)
        #expect(card.contact.imageData == nil)
        // The group's X-ABLabel stays with the grouped property it labels; a BDAY that is no date, a photo by URL
        // and KIND:location are kept rather than lost (KIND:group makes a group card).
        #expect(
            card.unmappedProperties == [
                "X-EVOLUTION-FILE-AS:Doe\\, Jane",
                "X-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;JD;1;;;;;;;;;;;;;",
                "item1.X-CUSTOM-THING;x-flag=yes:some value",
                "item1.X-ABLabel:Thing",
                "GEO:37.386013;-122.082932",
                "TZ:-05:00",
                "X-ABUID:ABC-123:ABPerson",
                "BDAY;VALUE=text:circa 1800",
                "PHOTO;VALUE=uri:https://example.com/jane.jpg",
                "KIND:location",
            ])
    }

    @Test func foldedUnmappedPropertyIsUnfolded() throws {
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A\r\nX-LONG;x-a=1:first part\r\n  and second\r\nEND:VCARD\r\n"
        let card = try readOne(text)
        #expect(card.unmappedProperties == ["X-LONG;x-a=1:first part and second"])
        #expect(card.contact.givenName == "A")
    }

    @Test func writtenBackWithoutClashingGroups() throws {
        let card = try readOne(Corpus.unknownProperties)
        var contact = card.contact
        contact.phoneNumbers = [LabeledValue(label: "Custom", value: "555")]
        let text = VCardWriter().write(contact, categories: [], unmappedProperties: card.unmappedProperties)
        // item1 belongs to the kept X-CUSTOM-THING, so the writer's own custom label takes item2.
        #expect(text.contains("\r\nitem2.TEL;type=pref:555\r\nitem2.X-ABLabel:Custom\r\n"))
        #expect(text.contains("\r\nitem1.X-CUSTOM-THING;x-flag=yes:some value\r\nitem1.X-ABLabel:Thing\r\n"))
        let again = try readOne(text)
        #expect(again.unmappedProperties == card.unmappedProperties)
        #expect(again.contact.phoneNumbers == [LabeledValue(label: "Custom", value: "555")])
    }

    @Test func secondSingleValuePropertyIsKept() throws {
        let text = """
            BEGIN:VCARD
            VERSION:3.0
            N:One;First;;;
            N:Two;Second;;;
            TITLE:Boss
            TITLE:Owner
            UID:abc
            UID:def
            END:VCARD
            """
        let card = try readOne(text)
        #expect(card.contact.familyName == "One")
        #expect(card.contact.jobTitle == "Boss")
        #expect(card.uid == "abc")
        // The contact keeps one UID, the card's first: another is said, not kept.
        #expect(card.unmappedProperties == ["N:Two;Second;;;", "TITLE:Owner"])
        #expect(card.warnings.map(\.key) == ["UID"])
        #expect(card.warnings.map(\.line) == [8])
    }

    @Test func uidThatIsNoCarnetIdentifierIsReportedButNotUsed() throws {
        let text = "BEGIN:VCARD\nVERSION:3.0\nFN:X\nUID:http://example.com/cards/42?x=1\nEND:VCARD\n"
        let card = try readOne(text)
        #expect(card.uid == "http://example.com/cards/42?x=1")
        #expect(card.contact.identifier != card.uid)
        #expect(!card.contact.identifier.isEmpty)
    }
}
