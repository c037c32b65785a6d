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
}
