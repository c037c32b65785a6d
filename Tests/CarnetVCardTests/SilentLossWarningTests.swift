import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

/// Outside testers' finds: what an import could not keep went with no word.
@Suite("Import says what it cannot keep")
struct SilentLossWarningTests {
    @Test("A date's time of day is not kept: the date is, with a warning at its line")
    func timeOfDay() async throws {
        let fixture = try ImportFixture()
        let card = """
            BEGIN:VCARD\r
            VERSION:4.0\r
            FN:Ada Lovelace\r
            N:Lovelace;Ada;;;\r
            BDAY:18151210T0630\r
            ANNIVERSARY:--0315T1030\r
            UID:ada\r
            END:VCARD\r

            """
        let summary = try await fixture.importText(card)
        #expect(summary.warnings.map(\.line) == [5, 6], "\(summary.warnings)")
        #expect(summary.warnings.allSatisfy { $0.message.contains("time of day") })
        let contact = try #require(try await fixture.contacts().first)
        #expect(contact.birthday == ContactDate(year: 1815, month: 12, day: 10))
        #expect(contact.dates.map(\.value) == [ContactDate(month: 3, day: 15)])
    }

    @Test("Cards without a UID that read as one contact say so; the later one's values stand")
    func sameDerivedIdentifier() async throws {
        let fixture = try ImportFixture()
        let card = { (categories: String) in
            "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lee;Kim;;;\r\nFN:Kim Lee\r\nCATEGORIES:\(categories)\r\nEND:VCARD\r\n"
        }
        let summary = try await fixture.importText(card("Work") + card("Family"))
        #expect(summary.added == 1)
        #expect(summary.warnings.map(\.key) == ["UID"], "\(summary.warnings)")
        #expect(summary.warnings.first?.line == 7)
        #expect(summary.warnings.first?.message.contains("line 1") == true)
        #expect(try await fixture.groupNames(of: "Kim") == ["Family"])
    }

    @Test("C1 controls and line separators a field cannot hold are said, in any charset; a note keeps a separator")
    func multiByteControls() async throws {
        let fixture = try ImportFixture()
        let card = [
            "BEGIN:VCARD", "VERSION:3.0", "N:Lee;Kim;;;", "FN:Kim Lee", "TITLE:Chief\u{85}Officer",
            "ORG:Acme\u{2028}Widgets", "NOTE:one\u{9F}two", "NICKNAME;ENCODING=QUOTED-PRINTABLE:a=C2=85b",
            "ADR:;;1 Main St\u{2028}Floor 2;Spring\u{2029}field;;;", "UID:kim", "END:VCARD", "",
        ].joined(separator: "\r\n")
        let summary = try await fixture.importText(card)
        #expect(summary.warnings.map(\.line) == [5, 6, 7, 8, 9], "\(summary.warnings)")
        let contact = try #require(try await fixture.contacts().first)
        #expect(contact.jobTitle == "Chief Officer")
        #expect(contact.postalAddresses.first?.value.street == "1 Main St\u{2028}Floor 2")
    }

    @Test("A URL's backslash is kept and not warned of: URIs have no escapes")
    func uriBackslash() async throws {
        let fixture = try ImportFixture()
        let card =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lee;Kim;;;\r\nURL:http://h/a\\nb\r\n"
            + "X-SOCIALPROFILE;type=twitter:https://t/x\\ny\r\nUID:kim\r\nEND:VCARD\r\n"
        let summary = try await fixture.importText(card)
        #expect(summary.warnings.isEmpty, "\(summary.warnings)")
        let contact = try #require(try await fixture.contacts().first)
        #expect(contact.urlAddresses.map(\.value) == ["http://h/a\\nb"])
        #expect(contact.socialProfiles.map(\.value.urlString) == ["https://t/x\\ny"])
    }

    @Test("A second UID is said, not dropped silently; the first names the contact")
    func secondUID() async throws {
        let fixture = try ImportFixture()
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lee;Kim;;;\r\nUID:first-uid\r\nUID:second-uid\r\nEND:VCARD\r\n"
        let summary = try await fixture.importText(card)
        #expect(summary.warnings.map(\.line) == [5], "\(summary.warnings)")
        #expect(summary.warnings.first?.key == "UID")
        #expect(try await fixture.export().contains("UID:first-uid\r\n"))
    }

    @Test("Values that begin with the scheme the reader takes off, and an x-apple: URL, read back as saved")
    func schemesRoundTrip() async throws {
        let fixture = try ImportFixture()
        var contact = Contact()
        contact.givenName = "Kim"
        contact.phoneNumbers = [LabeledValue(label: nil, value: "tel:+15550100"), LabeledValue(value: "+15550101")]
        contact.emailAddresses = [LabeledValue(value: "MAILTO:a@example.com"), LabeledValue(value: "b@example.com")]
        contact.socialProfiles = [
            LabeledValue(value: SocialProfile(urlString: "x-apple:foo", username: "bar", service: "LinkedIn")),
            LabeledValue(value: SocialProfile(username: "only", service: "Twitter")),
        ]
        try await fixture.store.execute(SaveRequest(operations: [.addContact(contact, containerIdentifier: nil)]))
        for version in [VCardWriter.Version.v3, .v4] {
            let card = try await fixture.export(version)
            let again = try ImportFixture()
            let summary = try await again.importText(card)
            #expect(summary.warnings.isEmpty, "\(summary.warnings)")
            let read = try #require(try await again.contacts().first)
            #expect(read.phoneNumbers.map(\.value) == ["tel:+15550100", "+15550101"], "\(card)")
            #expect(read.emailAddresses.map(\.value) == ["MAILTO:a@example.com", "b@example.com"], "\(card)")
            #expect(read.socialProfiles.map(\.value.urlString) == ["x-apple:foo", ""], "\(card)")
            #expect(read.socialProfiles.map(\.value.username) == ["bar", "only"], "\(card)")
        }
    }
}
