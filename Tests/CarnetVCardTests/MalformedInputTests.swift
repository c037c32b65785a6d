import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

@Suite("Malformed input")
struct MalformedInputTests {
    private let good = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Good\r\nEND:VCARD\r\n"

    @Test func truncatedCardAtTheEndOfTheFile() throws {
        let text = good + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Cut off\r\n"
        let (cards, issues) = try VCardReader().read(text)
        #expect(cards.map(\.contact.givenName) == ["Good"])
        #expect(issues == [VCardIssue(line: 5, message: "card has no END:VCARD before the end of the file")])
    }

    @Test func truncatedCardBeforeTheNextCard() throws {
        let text = "BEGIN:VCARD\nVERSION:3.0\nFN:Cut off\nBEGIN:VCARD\nVERSION:3.0\nFN:Next\nEND:VCARD\n"
        let (cards, issues) = try VCardReader().read(text)
        #expect(cards.map(\.contact.givenName) == ["Next"])
        #expect(cards.first?.line == 4)
        #expect(issues.map(\.line) == [1])
        #expect(issues.first?.message.contains("line 4") == true)
    }

    /// RFC 6350 3.2 lets any line be folded, BEGIN and END too: an outside tester's folded END:VCARD skipped its
    /// card ("no END:VCARD before the end of the file"), and a folded BEGIN was text outside any card.
    @Test("Folded BEGIN:VCARD and END:VCARD lines bound their cards")
    func foldedBoundaries() throws {
        for (begin, end) in [
            ("BEGIN:VCARD", "END:V\r\n CARD"), ("BEG\r\n IN:VCARD", "END:VCARD"),
            ("b\r\n\tegin:vcard", "E\r\n N\r\n D:VCARD "),
        ] {
            let text =
                "\(begin)\r\nVERSION:3.0\r\nN:One;Ann;;;\r\nFN:Ann One\r\n\(end)\r\n"
                + "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Two;Bo;;;\r\nFN:Bo Two\r\nEND:VCARD\r\n"
            let (cards, issues) = try VCardReader().read(text)
            #expect(cards.map(\.contact.givenName) == ["Ann", "Bo"], "\(begin) / \(end): \(issues)")
            #expect(issues.isEmpty, "\(begin) / \(end)")
        }
        // A line that only starts like the keyword stays what it is.
        let (cards, issues) = try VCardReader().read(
            "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Ann;;;;\r\nEND:V\r\n XCARD\r\nEND:VCARD\r\n")
        #expect(cards.count == 1 && cards.first?.contact.familyName == "Ann", "\(issues)")
    }

    @Test func endWithoutBeginAndStrayText() throws {
        let text = "garbage\nmore garbage\n" + good + "END:VCARD\n" + good
        let (cards, issues) = try VCardReader().read(text)
        #expect(cards.count == 2)
        #expect(
            issues == [
                VCardIssue(line: 1, message: "text outside any card (lines 1-2)"),
                VCardIssue(line: 7, message: "END:VCARD without BEGIN:VCARD"),
            ])
    }

    @Test func badQuotedPrintableSkipsTheWholeCard() throws {
        let bad =
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Bad;Card\r\nNOTE;ENCODING=QUOTED-PRINTABLE:caf=E9=ZZ\r\nEND:VCARD\r\n"
        let (cards, issues) = try VCardReader().read(good + bad + good)
        #expect(cards.count == 2)
        #expect(cards.allSatisfy { $0.contact.givenName == "Good" })
        #expect(issues == [VCardIssue(line: 8, cardLine: 5, message: "invalid quoted-printable in NOTE")])
        #expect(issues.first?.description == "line 8: invalid quoted-printable in NOTE (card at line 5 skipped)")
    }

    @Test func invalidUTF8() throws {
        var data = Data(good.utf8)
        data.append(Data("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Caf".utf8))
        data.append(contentsOf: [0xE9, 0x0D, 0x0A])  // Latin-1 é without a CHARSET
        data.append(Data("END:VCARD\r\n".utf8))
        data.append(Data("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ok\r\nX-RAW:".utf8))
        data.append(contentsOf: [0xC3, 0x28, 0x0D, 0x0A])  // broken UTF-8 in a property kept unmapped
        data.append(Data("END:VCARD\r\n".utf8))
        let (cards, issues) = try VCardReader().read(data)
        #expect(cards.map(\.contact.givenName) == ["Good"])
        #expect(
            issues == [
                VCardIssue(line: 7, cardLine: 5, message: "invalid UTF-8 in FN"),
                VCardIssue(line: 12, cardLine: 9, message: "invalid UTF-8 in X-RAW"),
            ])
    }

    @Test func unknownCharsetAndVersion() throws {
        let text =
            "BEGIN:VCARD\nVERSION:2.1\nFN;CHARSET=KOI8-R:x\nEND:VCARD\nBEGIN:VCARD\nVERSION:5.0\nFN:y\nEND:VCARD\n"
        let (cards, issues) = try VCardReader().read(text)
        #expect(cards.isEmpty)
        #expect(issues.map(\.message) == ["unsupported charset \"KOI8-R\" in FN", "unsupported vCard version \"5.0\""])
    }

    @Test func lineWithoutColonAndUnterminatedQuote() throws {
        let text =
            "BEGIN:VCARD\nVERSION:3.0\nFN:a\njust words\nEND:VCARD\n"
            + "BEGIN:VCARD\nVERSION:3.0\nFN;X-A=\"open:b\nEND:VCARD\n" + good
        let (cards, issues) = try VCardReader().read(text)
        #expect(cards.count == 1)
        #expect(issues.map(\.line) == [4, 8])
    }

    @Test func hugeLineIsAnIssueForItsCardOnly() throws {
        let reader = VCardReader(maxLineBytes: 1_000)
        let huge = "BEGIN:VCARD\nVERSION:3.0\nFN:Big\nNOTE:" + String(repeating: "x", count: 5_000) + "\nEND:VCARD\n"
        let folded =
            "BEGIN:VCARD\nVERSION:3.0\nFN:Big\nNOTE:" + String(repeating: "y\n ", count: 1_200) + "\nEND:VCARD\n"
        let (cards, issues) = try reader.read(good + huge + folded + good)
        #expect(cards.count == 2)
        #expect(issues.map(\.line) == [8, 13])
        #expect(issues.allSatisfy { $0.message == "line longer than 1000 bytes" })
    }

    @Test func photoOverTheLimitIsKeptWithAWarning() throws {
        // 6 MB decoded, over the default 5 MiB limit; folded as 3.0 writers fold base64.
        let base64 = Data(count: 6_000_000).base64EncodedString(options: [
            .lineLength76Characters, .endLineWithLineFeed,
        ])
        let folded = base64.replacingOccurrences(of: "\n", with: "\n ")
        let big = "BEGIN:VCARD\nVERSION:3.0\nFN:Big\nPHOTO;ENCODING=b;TYPE=JPEG:" + folded + "\nEND:VCARD\n"
        let (cards, issues) = try VCardReader().read(good + big + good)
        #expect(issues.isEmpty)
        #expect(cards.count == 3)
        #expect(cards[1].contact.imageData == nil)
        #expect(cards[1].unmappedProperties.first?.hasPrefix("PHOTO;ENCODING=b;TYPE=JPEG:") == true)
        #expect(cards[1].warnings.map { "\($0.line) \($0.cardLine) \($0.key)" } == ["8 5 imageData"])
    }

    @Test func photoWithinALowerLimitAndBadBase64() throws {
        let text =
            "BEGIN:VCARD\nVERSION:3.0\nFN:A\nPHOTO;ENCODING=b:AAAA\nEND:VCARD\n"
            + "BEGIN:VCARD\nVERSION:3.0\nFN:B\nPHOTO;ENCODING=b:AA*A\nEND:VCARD\n"
        let (cards, issues) = try VCardReader(maxPhotoBytes: 3).read(text)
        #expect(cards.map(\.contact.imageData) == [Data([0, 0, 0])])
        #expect(issues.map(\.message) == ["PHOTO is not valid base64"])
        // A photo over the limit is kept as written, with a warning: the card still reads.
        let small = try VCardReader(maxPhotoBytes: 2).read(text)
        #expect(small.cards.map(\.contact.imageData) == [nil])
        #expect(small.cards.first?.unmappedProperties == ["PHOTO;ENCODING=b:AAAA"])
        #expect(small.cards.first?.warnings.map(\.key) == ["imageData"])
        #expect(small.issues.count == 1)
    }

    @Test func strictModeThrowsTheFirstIssueWithItsLine() throws {
        let bad = "BEGIN:VCARD\nVERSION:3.0\nFN:x\nNOTE;ENCODING=QUOTED-PRINTABLE:=G1\nEND:VCARD\n"
        let text = good + bad + "BEGIN:VCARD\nVERSION:3.0\n"
        #expect(throws: VCardIssue(line: 8, cardLine: 5, message: "invalid quoted-printable in NOTE")) {
            try VCardReader(strict: true).read(text)
        }
        // The streaming form stops at the first failure in strict mode.
        let results = Array(VCardReader(strict: true).cards(from: Data(text.utf8)))
        #expect(results.count == 2)
        // Lenient reading reports both problems and keeps the good card.
        let (cards, issues) = try VCardReader().read(text)
        #expect(cards.count == 1)
        #expect(issues.map(\.line) == [8, 10])
    }

    @Test func emptyAndBlankInput() throws {
        #expect(try VCardReader().read(Data()).cards.isEmpty)
        let (cards, issues) = try VCardReader().read("\r\n\r\n   \n")
        #expect(cards.isEmpty && issues.isEmpty)
    }

    @Test func badDatesAreKeptNotGuessed() throws {
        let text =
            "BEGIN:VCARD\nVERSION:3.0\nFN:D\nBDAY:2001-02-29\nitem1.X-ABDATE:2020-13-01\nitem1.X-ABLabel:x\nEND:VCARD\n"
        let card = try readOne(text)
        #expect(card.contact.birthday == nil)
        #expect(card.contact.dates.isEmpty)
        #expect(card.unmappedProperties == ["BDAY:2001-02-29", "item1.X-ABDATE:2020-13-01", "item1.X-ABLabel:x"])
    }
}
