import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

/// Issue 15, point 1: a value over a store limit no longer drops its card; it is kept as a vCard property,
/// reported with its line and key, and written back on export.
@Suite("Values over the store's limits")
struct OverLimitTests {
    @Test("A 200,000-character NOTE and a 300-character X-ABLabel: the card imports, both are kept and reported")
    func longNoteAndLabel() async throws {
        let fixture = try ImportFixture()
        let summary = try await fixture.importText(FidelityCorpus.iCloudLongValues)
        #expect(summary.added == 1 && summary.skipped.isEmpty)
        let warnings = summary.warnings.map { "\($0.line) \($0.key)" }
        #expect(warnings == ["6 phoneNumbers[0].label", "9 note"])
        #expect(summary.warnings.allSatisfy { $0.cardLine == 1 })
        let nora = try await fixture.contact(named: "Nora")
        #expect(nora.note.isEmpty)
        // The phone with the long label stays with its label, as a kept group; the other phone is a key.
        #expect(nora.phoneNumbers.map(\.value) == ["+1 555 0101"])
        let kept = nora.vCardProperties.map(\.value)
        #expect(kept.count == 3)
        #expect(kept[0] == "item1.TEL;type=pref:+1 555 0100")
        #expect(kept[1].hasPrefix("item1.X-ABLabel:Ferienhaus am See"))
        #expect(kept[2].hasPrefix("NOTE:Lorem ipsum") && kept[2].utf8.count > 200_000)
        for version in [VCardWriter.Version.v3, .v4] {
            let exported = try await fixture.export(version)
            let card = try readOne(exported)
            #expect(card.unmappedProperties == kept)
            #expect(card.warnings.count == 2)
        }
    }

    @Test("A CATEGORIES name over a group name's limit: the line is kept, the card imports", arguments: [false, true])
    func longCategoryName(strict: Bool) async throws {
        let long = String(repeating: "c", count: StoreLimits.singleLineBytes + 1)
        let text =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Cat\r\nTEL:+1 555 0100\r\nCATEGORIES:Team,\(long)\r\nUID:cat\r\n"
            + "CATEGORIES:Club\r\nEND:VCARD\r\n"
        let fixture = try ImportFixture()
        let summary = try await fixture.importText(text, strict: strict)
        #expect(summary.added == 1 && summary.skipped.isEmpty)
        #expect(summary.warnings.map { "\($0.line) \($0.key)" } == ["5 CATEGORIES"], "\(summary.warnings)")
        let cat = try await fixture.contact(named: "Cat")
        #expect(cat.phoneNumbers.map(\.value) == ["+1 555 0100"])
        #expect(cat.vCardProperties.map(\.value) == ["CATEGORIES:Team,\(long)"])
        // The card's other CATEGORIES line still makes its group.
        #expect(try await fixture.store.groups().map(\.name) == ["Club"])
    }

    @Test("A 200,000-character note in Cyrillic (340 KB as UTF-8) is kept too")
    func longNonLatinNote() async throws {
        let note = String(repeating: "Привет, мир. ", count: 15_400)
        let text = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ivan\r\nNOTE:\(note)\r\nUID:ivan\r\nEND:VCARD\r\n"
        let fixture = try ImportFixture()
        let summary = try await fixture.importText(text)
        #expect(summary.added == 1 && summary.warnings.map(\.key) == ["note"])
        let kept = try #require(try await fixture.contact(named: "Ivan").vCardProperties.first?.value)
        #expect(kept.utf8.count > 300_000 && kept.hasPrefix("NOTE:Привет"))
        #expect(try readOne(try await fixture.export(.v4)).unmappedProperties == [kept])
    }

    @Test("A 101st phone number and an over-long given name are kept; the rest of the card maps")
    func tooManyValuesAndLongName() async throws {
        let phones = (0..<101).map { "TEL;TYPE=CELL:+1 555 \(1000 + $0)" }.joined(separator: "\n")
        let text = """
            BEGIN:VCARD
            VERSION:3.0
            N:Short;\(String(repeating: "G", count: 1_100));;;
            FN:Gee Short
            \(phones)
            UID:many-phones
            END:VCARD

            """
        let fixture = try ImportFixture()
        let summary = try await fixture.importText(text)
        #expect(summary.added == 1)
        #expect(summary.warnings.map(\.key).sorted() == ["givenName", "phoneNumbers"])
        #expect(summary.warnings.first { $0.key == "phoneNumbers" }?.line == 105)
        let contact = try #require(try await fixture.contacts().first)
        // N was kept aside, so FN names the contact.
        #expect(contact.givenName == "Gee" && contact.familyName == "Short")
        #expect(contact.phoneNumbers.count == 100)
        #expect(contact.vCardProperties.map(\.value).contains("TEL;TYPE=CELL:+1 555 1100"))
        let again = try await fixture.importText(try await fixture.export())
        #expect(again.unchanged == 1 && again.added == 0)
    }

    @Test("A 6 MB photo (over the 5 MiB image limit) is kept as its PHOTO line and written back")
    func oversizedPhoto() async throws {
        let base64 = Data(count: 6_000_000).base64EncodedString()
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Big Photo\r\nPHOTO;ENCODING=b;TYPE=JPEG:\(base64)\r\nEND:VCARD\r\n"
        let fixture = try ImportFixture()
        let summary = try await fixture.importText(text)
        #expect(summary.added == 1 && summary.warnings.map(\.key) == ["imageData"])
        let contact = try await fixture.contact(named: "Big")
        #expect(contact.imageData == nil)
        #expect(contact.vCardProperties.first?.value == "PHOTO;ENCODING=b;TYPE=JPEG:" + base64)
        let again = try await fixture.importText(try await fixture.export())
        #expect(again.unchanged == 1)
    }

    /// Past the store's 1,000 vCard properties the card was refused whole ("invalid values: vCardProperties"), and
    /// with it everything the store could hold: now the lines past the limit are left out, with one warning.
    @Test("2,000 phone numbers: 100 map, 1,000 lines are kept, the rest are left out with a warning, the card imports")
    func pastTheKeptLimit() async throws {
        let phones = (0..<2_000).map { "TEL:+1 555 \(10_000 + $0)" }.joined(separator: "\r\n")
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Many\r\nNOTE:kept\r\n\(phones)\r\nEND:VCARD\r\n"
        let fixture = try ImportFixture()
        let summary = try await fixture.importText(text)
        #expect(summary.added == 1 && summary.skipped.isEmpty)
        let many = try await fixture.contact(named: "Many")
        #expect(many.note == "kept" && many.phoneNumbers.count == StoreLimits.valuesPerProperty)
        #expect(many.vCardProperties.count == StoreLimits.vCardPropertiesPerContact)
        #expect(many.vCardProperties.last?.value == "TEL:+1 555 11099")
        let dropped = summary.warnings.filter { $0.key == "vCardProperties" }
        #expect(dropped.map(\.line) == [1_105] && dropped.first?.message.hasPrefix("900 lines") == true)
        // One warning for each line kept, none for those left out.
        #expect(summary.warnings.count == 1_000 + 1 && summary.warnings.allSatisfy { $0.line <= 1_105 })
    }

    /// A control character in a kept line (the store holds none in any value) refused the card whole; mapped text
    /// (FN, NOTE) was already cleaned of them.
    @Test("Control characters in kept lines are taken out, with a warning, and the card imports")
    func controlCharactersInKeptLines() async throws {
        let text =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ctl\r\nX-ESC:a\u{1B}b\u{0}c\r\nX-PARAM;X-P=p\u{1}q:value\r\n"
            + "X-TAB:a\tb\r\nEND:VCARD\r\n"
        let fixture = try ImportFixture()
        let summary = try await fixture.importText(text)
        #expect(summary.added == 1 && summary.skipped.isEmpty)
        let kept = try await fixture.contact(named: "Ctl").vCardProperties.map(\.value)
        #expect(kept == ["X-ESC:abc", "X-PARAM;X-P=pq:value", "X-TAB:a\tb"])
        #expect(summary.warnings.map { "\($0.line) \($0.key)" } == ["4 X-ESC", "5 X-PARAM"])
    }

    /// An outside tester's find: a value with a longer run of combining marks than the store takes was kept aside
    /// whole, which the store refused too, and the card was skipped, its name and number with it.
    @Test(
        "A run of combining marks past the store's limit: the line is kept cut to it, with a warning, the card imports")
    func combiningMarkRun() async throws {
        let marks = String(repeating: "\u{301}", count: CombiningMarks.maxRun + 45)
        let text =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Marked One\r\nN:One;Marked;;;\r\nTEL:+1 555 123 4567\r\n"
            + "NOTE:a\(marks)\r\nX-MARKS:b\(marks)\r\nEND:VCARD\r\n"
        let fixture = try ImportFixture()
        let summary = try await fixture.importText(text)
        #expect(summary.added == 1 && summary.skipped.isEmpty, "\(summary.skipped)")
        let contact = try await fixture.contact(named: "Marked")
        #expect(contact.phoneNumbers.map(\.value) == ["+1 555 123 4567"])
        let cut = String(repeating: "\u{301}", count: CombiningMarks.maxRun)
        #expect(
            contact.vCardProperties.map { Array($0.value.utf8) } == [
                Array("NOTE:a\(cut)".utf8), Array("X-MARKS:b\(cut)".utf8),
            ])
        #expect(summary.warnings.contains { $0.line == 6 && $0.message.contains("combining marks") })
        #expect(summary.warnings.contains { $0.line == 7 && $0.message.contains("combining marks") })
    }

    /// C1 controls (U+0080–U+009F) and the Unicode line separators are control characters too (the store refuses
    /// them): mapped single-line text turns them into spaces, a note drops the C1 ones, a kept line loses them.
    @Test("C1 controls and line separators in mapped and kept text")
    func c1Controls() async throws {
        let text =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\u{85}Lee\r\nN:Lee\u{9B};Ann\u{2028}Marie;;;\r\n"
            + "NOTE:one\u{85}two\u{2028}three\r\nX-C1:a\u{80}b\r\nEND:VCARD\r\n"
        let fixture = try ImportFixture()
        let summary = try await fixture.importText(text)
        #expect(summary.added == 1 && summary.skipped.isEmpty)
        let contact = try await fixture.contact(named: "Ann Marie")
        #expect(contact.givenName == "Ann Marie" && contact.familyName == "Lee")
        #expect(contact.note == "onetwo\u{2028}three")
        #expect(contact.vCardProperties.map(\.value) == ["X-C1:ab"])
    }

    /// A date the store cannot hold was kept as written without a word (an outside fuzzer's find): the import's
    /// warnings now say so, as for every other value kept aside.
    @Test("Dates that are no dates are kept, with a warning")
    func unreadableDates() async throws {
        let text =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Dated\r\nN:Dated;;;;\r\nBDAY:2023-02-30\r\n"
            + "item1.X-ABDATE:1999-13-01\r\nANNIVERSARY:2001-05-06\r\nEND:VCARD\r\n"
        let fixture = try ImportFixture()
        let summary = try await fixture.importText(text, strict: true)
        #expect(summary.added == 1)
        #expect(summary.warnings.map { "\($0.line) \($0.key)" } == ["5 BDAY", "6 X-ABDATE"])
        let contact = try #require(try await fixture.contacts().first)
        #expect(contact.birthday == nil && contact.dates.count == 1)
        #expect(contact.vCardProperties.map(\.value) == ["BDAY:2023-02-30", "item1.X-ABDATE:1999-13-01"])
    }
}
