import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

@Suite("Writing")
struct WriterTests {
    private func lines(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n").filter { !$0.isEmpty }
    }

    @Test func version3LayoutAndAppleConventions() {
        var contact = Contact(identifier: "ABC-1", contactType: .organization)
        contact.organizationName = "Initech"
        contact.phoneNumbers = [
            LabeledValue(label: ContactLabel.phoneHomeFax, value: "1"),
            LabeledValue(label: "Boat", value: "2"),
            LabeledValue(label: ContactLabel.phoneiPhone, value: "3"),
        ]
        contact.emailAddresses = [LabeledValue(label: ContactLabel.work, value: "a@b.example")]
        contact.birthday = ContactDate(month: 3, day: 14)
        contact.postalAddresses = [
            LabeledValue(label: ContactLabel.home, value: PostalAddress(city: "Paris", isoCountryCode: "fr"))
        ]
        let text = VCardWriter().write(contact, categories: ["VIP"])
        #expect(text.hasSuffix("END:VCARD\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(
            lines(text) == [
                "BEGIN:VCARD",
                "VERSION:3.0",
                "PRODID:-//Carnet//Carnet vCard//EN",
                "N:;;;;",
                "FN:Initech",
                "ORG:Initech",
                "X-ABShowAs:COMPANY",
                "TEL;type=HOME;type=FAX;type=pref:1",
                "item1.TEL:2",
                "item1.X-ABLabel:Boat",
                "TEL;type=IPHONE;type=CELL:3",
                "EMAIL;type=INTERNET;type=WORK;type=pref:a@b.example",
                "item2.ADR;type=HOME;type=pref:;;;Paris;;;",
                "item2.X-ABADR:fr",
                "BDAY;X-APPLE-OMIT-YEAR=1604:1604-03-14",
                "CATEGORIES:VIP",
                "UID:ABC-1",
                "END:VCARD",
            ])
    }

    @Test func version4Forms() {
        var contact = Contact(identifier: "ABC-2", contactType: .organization)
        contact.organizationName = "Initech"
        contact.phoneNumbers = [LabeledValue(label: ContactLabel.phoneWorkFax, value: "1")]
        contact.birthday = ContactDate(month: 3, day: 14)
        contact.dates = [
            LabeledValue(label: ContactLabel.dateAnniversary, value: ContactDate(year: 2001, month: 2, day: 3)),
            LabeledValue(label: "Other day", value: ContactDate(year: 2002, month: 4, day: 5)),
        ]
        contact.contactRelations = [
            LabeledValue(label: ContactLabel.spouse, value: ContactRelation(name: "Kim")),
            LabeledValue(label: ContactLabel.sister, value: ContactRelation(name: "Jo")),
        ]
        contact.imageData = Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3])
        let all = lines(VCardWriter(version: .v4).write(contact))
        #expect(all.prefix(4) == ["BEGIN:VCARD", "VERSION:4.0", "PRODID:-//Carnet//Carnet vCard//EN", "KIND:org"])
        #expect(all.contains("TEL;TYPE=work,fax;PREF=1:1"))
        #expect(all.contains("BDAY:--0314"))
        #expect(all.contains("ANNIVERSARY:20010203"))
        #expect(all.contains("item1.X-ABDATE:20020405"))
        #expect(all.contains("item1.X-ABLabel:Other day"))
        #expect(all.contains("RELATED;VALUE=text;TYPE=spouse:Kim"))
        #expect(all.contains("item2.RELATED;VALUE=text:Jo"))
        #expect(all.contains("item2.X-ABLabel:_$!<Sister>!$_"))
        #expect(all.contains("PHOTO:data:image/png;base64,iVBORwECAw=="))
        #expect(!all.contains { $0.hasPrefix("X-ABShowAs") })
    }

    @Test func photoIn3IsBase64WithType() {
        var contact = Contact(identifier: "p")
        contact.givenName = "P"
        contact.imageData = Data([0xFF, 0xD8, 0xFF])
        #expect(lines(VCardWriter().write(contact)).contains("PHOTO;ENCODING=b;TYPE=JPEG:/9j/"))
    }

    @Test func onlyAvailableKeysAreRead() {
        // An update-style contact has only the keys set on it; reading any other would trap.
        var partial = Contact(updating: "partial-1")
        partial.givenName = "Ann"
        partial.emailAddresses = [LabeledValue(value: "ann@example.com")]
        let all = lines(VCardWriter().write(partial))
        #expect(
            all == [
                "BEGIN:VCARD", "VERSION:3.0", "PRODID:-//Carnet//Carnet vCard//EN", "N:;Ann;;;", "FN:Ann",
                "EMAIL;type=INTERNET;type=pref:ann@example.com", "UID:partial-1", "END:VCARD",
            ])
        let v4 = lines(VCardWriter(version: .v4).write(Contact(updating: "partial-2")))
        #expect(v4.contains("FN:"))
        #expect(v4.contains("UID:partial-2"))
    }

    @Test func thumbnailStandsInForAMissingImage() {
        var contact = Contact(updating: "t")
        contact.thumbnailImageData = Data([0xFF, 0xD8, 0xFF])
        #expect(lines(VCardWriter().write(contact)).contains("PHOTO;ENCODING=b;TYPE=JPEG:/9j/"))
    }

    @Test func textIsEscaped() {
        var contact = Contact(identifier: "e")
        contact.givenName = "A,B"
        contact.familyName = "C;D"
        contact.note = "x\\y\nz"
        let all = lines(VCardWriter().write(contact))
        #expect(all.contains("N:C\\;D;A\\,B;;;"))
        #expect(all.contains("FN:A\\,B C\\;D"))
        #expect(all.contains("NOTE:x\\\\y\\nz"))
    }

    @Test func unmappedLinesThatWouldBreakTheCardAreDropped() {
        let text = VCardWriter().write(
            Contact(identifier: "u"),
            unmappedProperties: [
                "END:VCARD", "BEGIN:VCARD", "VERSION:2.1", "X-OK:yes", "no colon", "X-BROKEN:a\r\nb",
            ])
        let all = lines(text)
        #expect(all.filter { $0 == "END:VCARD" }.count == 1)
        #expect(all.contains("X-OK:yes"))
        #expect(all.contains("X-BROKEN:ab"))
        #expect(!all.contains("no colon"))
    }

    @Test func manyContactsTakeCategoriesAndPropertiesByIdentifier() throws {
        var a = Contact(identifier: "a")
        a.givenName = "A"
        var b = Contact(identifier: "b")
        b.givenName = "B"
        let text = VCardWriter().write([a, b], categories: ["b": ["G"]], unmappedProperties: ["a": ["X-A:1"]])
        let cards = try VCardReader().read(text).cards
        #expect(cards.map(\.contact.identifier) == ["a", "b"])
        #expect(cards.map(\.categories) == [[], ["G"]])
        #expect(cards.map(\.unmappedProperties) == [["X-A:1"], []])
    }
}
