import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

/// PREF: the first value is the Contacts framework's preferred one, so a value a writer marks preferred further
/// down comes first (an outside vCard fuzzer found PREF ignored: the file's order stood).
@Suite("Preferred values first")
struct PreferenceOrderTests {
    @Test("3.0 type=pref, 4.0 PREF ranks and 2.1's bare PREF put their values first, the rest in file order")
    func order() async throws {
        let file = """
            BEGIN:VCARD\r
            VERSION:3.0\r
            N:Lee;Ann;;;\r
            TEL;type=HOME:+1 555 0001\r
            TEL;type=WORK;type=pref:+1 555 0002\r
            TEL;type=CELL:+1 555 0003\r
            URL:https://a.example\r
            URL;type=pref:https://b.example\r
            END:VCARD\r
            BEGIN:VCARD\r
            VERSION:4.0\r
            FN:Bo Lee\r
            N:Lee;Bo;;;\r
            EMAIL:a@example.com\r
            EMAIL;PREF=2:b@example.com\r
            EMAIL;PREF=1:c@example.com\r
            EMAIL;PREF=400:d@example.com\r
            END:VCARD\r
            BEGIN:VCARD\r
            VERSION:2.1\r
            N:Lee;Cy;;;\r
            ADR;HOME:;;1 Home Rd;Town;;;\r
            ADR;WORK;PREF:;;2 Work St;City;;;\r
            END:VCARD\r

            """
        let fixture = try ImportFixture()
        _ = try await fixture.importText(file)
        let ann = try await fixture.contact(named: "Ann")
        #expect(ann.phoneNumbers.map(\.value) == ["+1 555 0002", "+1 555 0001", "+1 555 0003"])
        #expect(ann.urlAddresses.map(\.value) == ["https://b.example", "https://a.example"])
        let bo = try await fixture.contact(named: "Bo")
        // An out-of-range rank counts as none.
        #expect(bo.emailAddresses.map(\.value) == ["c@example.com", "b@example.com", "a@example.com", "d@example.com"])
        let cy = try await fixture.contact(named: "Cy")
        #expect(cy.postalAddresses.map(\.value.street) == ["2 Work St", "1 Home Rd"])
        // The export marks the first value preferred; reading it back changes nothing, nor does the file again.
        for version in [VCardWriter.Version.v3, .v4] {
            let again = try await fixture.importText(try await fixture.export(version))
            #expect(again.added == 0 && again.updated == 0, "\(version)")
        }
        #expect(try await fixture.importText(file).updated == 0)
        #expect(try await fixture.contact(named: "Ann").phoneNumbers.map(\.value).first == "+1 555 0002")
    }

    @Test("A refused value is reported at its own line after the values are reordered")
    func errorLines() async throws {
        let long = String(repeating: "9", count: 2_000)
        let file = """
            BEGIN:VCARD\r
            VERSION:3.0\r
            N:Lee;Ann;;;\r
            TEL;type=HOME:\(long)\r
            TEL;type=WORK;type=pref:+1 555 0002\r
            END:VCARD\r

            """
        let fixture = try ImportFixture()
        let summary = try await fixture.importText(file)
        let lines = summary.warnings.map(\.line) + summary.skipped.map(\.line)
        #expect(lines.contains(4) && !lines.contains(5), "\(summary)")
    }
}
