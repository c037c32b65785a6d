import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

@Suite("Google, Outlook, CardDAV and phone exports")
struct OtherExporterTests {
    @Test func googleContacts() throws {
        let card = try readOne(Corpus.googleContacts)
        let c = card.contact
        #expect(c.givenName == "María")
        #expect(c.familyName == "García")
        #expect(c.nickname == "Mari")
        #expect(c.emailAddresses.map(\.label) == [ContactLabel.home, ContactLabel.work])
        #expect(
            c.phoneNumbers == [
                LabeledValue(label: ContactLabel.phoneMobile, value: "+34 600 123 456"),
                LabeledValue(label: ContactLabel.work, value: "+34 91 123 45 67"),
            ])
        #expect(
            c.postalAddresses == [
                LabeledValue(
                    label: ContactLabel.home,
                    value: PostalAddress(
                        street: "Calle Mayor 1", city: "Madrid", postalCode: "28013", country: "España"))
            ])
        #expect(c.organizationName == "Ejemplo S.L.")
        #expect(c.jobTitle == "Directora")
        #expect(c.birthday == ContactDate(year: 1985, month: 7, day: 21))
        // Google escapes the colon of URLs; the escape is undone.
        #expect(c.urlAddresses == [LabeledValue(label: "Blog", value: "https://maria.example.es")])
        #expect(
            c.dates == [
                LabeledValue(label: ContactLabel.dateAnniversary, value: ContactDate(year: 2010, month: 9, day: 4))
            ])
        #expect(
            c.contactRelations == [LabeledValue(label: ContactLabel.brother, value: ContactRelation(name: "Carlos"))])
        #expect(c.note == "Prefers WhatsApp")
        #expect(card.categories == ["myContacts", "Family"])
        #expect(card.unmappedProperties.isEmpty)
    }

    @Test func outlookQuotedPrintableAndWindows1252() throws {
        let data = try #require(Corpus.crlf(Corpus.outlook).data(using: .isoLatin1))
        let (cards, issues) = try VCardReader().read(data)
        #expect(issues.isEmpty, "\(issues)")
        let card = try #require(cards.first)
        let c = card.contact
        #expect(card.version == "2.1")
        #expect(c.givenName == "Jürgen")
        #expect(c.familyName == "Müller")
        #expect(c.organizationName == "Müller & Söhne GmbH")
        #expect(c.departmentName == "Vertrieb")
        #expect(c.jobTitle == "Leiter Vertrieb")
        #expect(
            c.phoneNumbers == [
                LabeledValue(label: ContactLabel.work, value: "+49 89 1234567"),
                LabeledValue(label: ContactLabel.home, value: "+49 89 7654321"),
                LabeledValue(label: ContactLabel.phoneMobile, value: "+49 170 1234567"),
                LabeledValue(label: ContactLabel.phoneWorkFax, value: "+49 89 1234568"),
            ])
        #expect(
            c.postalAddresses == [
                LabeledValue(
                    label: ContactLabel.work,
                    value: PostalAddress(
                        street: "Straße des 17. Juni 1\nHinterhaus", city: "München", state: "Bayern",
                        postalCode: "80331",
                        country: "Deutschland"))
            ])
        #expect(c.emailAddresses == [LabeledValue(value: "juergen.mueller@mueller-soehne.example")])
        #expect(c.urlAddresses == [LabeledValue(label: ContactLabel.work, value: "http://www.mueller-soehne.example")])
        // The soft line break joins "nicht" and " freitags" with the space the next line starts with.
        #expect(c.note == "Kunde seit 2003.\nBevorzugt Anrufe vormittags – nicht freitags.")
        #expect(c.birthday == ContactDate(year: 1970, month: 4, day: 12))
        #expect(card.unmappedProperties.count == 4)
        // 2.1's quoted-printable, CHARSET and bare types are undone, so the kept lines are valid in 3.0 and 4.0.
        #expect(card.unmappedProperties[0] == "LABEL;TYPE=WORK;TYPE=PREF:Straße des 17. Juni 1\\nMünchen 80331")
        #expect(card.unmappedProperties[1] == "X-MS-OL-DEFAULT-POSTAL-ADDRESS:2")
        #expect(card.unmappedProperties[2].hasPrefix("X-MS-OL-DESIGN:<card xmlns="))
        #expect(card.unmappedProperties[3] == "REV:20240102T101500Z")
    }

    @Test func cardDAV40() throws {
        let card = try readOne(Corpus.cardDAV)
        let c = card.contact
        #expect(card.version == "4.0")
        #expect(card.uid == "urn:uuid:4fbe8971-0bc3-424c-9c26-36c3e1eff6b1")
        #expect(c.identifier == "urn:uuid:4fbe8971-0bc3-424c-9c26-36c3e1eff6b1")
        #expect(c.contactType == .person)
        #expect((c.givenName, c.middleName, c.familyName) == ("Anna", "Maria", "Kowalska"))
        #expect(c.birthday == ContactDate(month: 3, day: 14))
        #expect(
            c.dates == [
                LabeledValue(label: ContactLabel.dateAnniversary, value: ContactDate(year: 2012, month: 6, day: 30))
            ])
        #expect(c.emailAddresses.map(\.label) == [ContactLabel.work, ContactLabel.home])
        #expect(
            c.phoneNumbers == [
                LabeledValue(label: ContactLabel.phoneMobile, value: "+48-600-700-800"),
                LabeledValue(label: ContactLabel.home, value: "+48-22-123-45-67"),
            ])
        #expect(c.postalAddresses.first?.value.street == "ul. Długa 5")
        #expect(c.postalAddresses.first?.value.state == "mazowieckie")
        #expect(
            c.contactRelations == [
                LabeledValue(label: ContactLabel.spouse, value: ContactRelation(name: "Piotr Kowalski")),
                LabeledValue(label: ContactLabel.child, value: ContactRelation(name: "Zosia")),
            ])
        #expect(
            c.instantMessageAddresses == [
                LabeledValue(
                    label: ContactLabel.home,
                    value: InstantMessageAddress(
                        username: "anna@jabber.example.pl", service: "Jabber"))
            ])
        #expect(c.urlAddresses == [LabeledValue(label: ContactLabel.work, value: "https://example.pl/~anna")])
        #expect(c.note == "Sąsiadka z naprzeciwka.")
        #expect(c.imageData?.count == 64)
        #expect(c.imageData?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
        #expect(card.categories == ["Sąsiedzi"])
        #expect(
            card.unmappedProperties == [
                // The address's LABEL, which no key holds, with the address as Carnet writes it (FullerForm).
                #"ADR;LABEL=ul. Długa 5\nWarszawa:;;ul. Długa 5;Warszawa;mazowieckie;00-238;Polska"#,
                "GENDER:F",
                "RELATED;TYPE=friend:urn:uuid:03a0e51f-d1aa-4385-8a53-e29025acd8af",
                "LANG;PREF=1:pl",
                "TZ;VALUE=utc-offset:+0100",
                "GEO:geo:52.2297,21.0122",
                "REV:20240315T120000Z",
            ])
    }

    @Test func cardDAVOrganizationWithOnlyFN() throws {
        let card = try readOne(Corpus.cardDAVOrganization)
        #expect(card.contact.contactType == .organization)
        #expect(card.contact.organizationName == "ACME Corporation")
        #expect(card.contact.givenName == "")
        #expect(card.contact.phoneNumbers == [LabeledValue(label: ContactLabel.work, value: "+1-555-0100")])
        #expect(card.unmappedProperties == ["LOGO;MEDIATYPE=image/png:https://acme.example/logo.png"])
    }

    @Test func phone21WithBase64PhotoAndLegacyIM() throws {
        let card = try readOne(Corpus.crlf(Corpus.phone21))
        let c = card.contact
        #expect((c.givenName, c.familyName) == ("Bob", "Smith"))
        #expect(
            c.phoneNumbers == [
                LabeledValue(label: ContactLabel.phoneMobile, value: "555-0123"),
                LabeledValue(label: ContactLabel.phonePager, value: "555-0124"),
            ])
        #expect(c.emailAddresses == [LabeledValue(label: ContactLabel.home, value: "bob@example.net")])
        #expect(
            c.instantMessageAddresses == [
                LabeledValue(value: InstantMessageAddress(username: "bobsmith", service: "Yahoo")),
                LabeledValue(
                    label: ContactLabel.work,
                    value: InstantMessageAddress(username: "bob@hotmail.example", service: "MSN")),
                LabeledValue(value: InstantMessageAddress(username: "bob.smith", service: "Skype")),
            ])
        #expect(c.imageData?.count == 64)
        #expect(c.note == "Line one\nLine two = equal")
    }

    @Test func thunderbirdHebrewBirthdayAndPlainTypes() throws {
        let card = try readOne(Corpus.thunderbird)
        let c = card.contact
        #expect(c.nonGregorianBirthday == ContactDate(calendar: "hebrew", year: 5745, month: 1, day: 1))
        #expect(
            c.dates == [
                LabeledValue(label: ContactLabel.dateAnniversary, value: ContactDate(year: 2015, month: 5, day: 20))
            ])
        // PREF and VOICE are no labels.
        #expect(c.emailAddresses == [LabeledValue(value: "david@example.co.il")])
        #expect(c.phoneNumbers == [LabeledValue(value: "+972 3 555 0000")])
        #expect(
            c.postalAddresses == [
                LabeledValue(value: PostalAddress(street: "Rothschild Blvd 1", city: "Tel Aviv", country: "Israel"))
            ])
    }
}
