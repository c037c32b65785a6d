import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

@Suite("Folding")
struct FoldingTests {
    /// Every physical line of the text, in octets.
    private func physicalLines(_ text: String) -> [[UInt8]] {
        var result: [[UInt8]] = [[]]
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                result.append([])
                index += 2
            } else {
                #expect(bytes[index] != 0x0A && bytes[index] != 0x0D, "bare line break")
                result[result.count - 1].append(bytes[index])
                index += 1
            }
        }
        return result
    }

    @Test(arguments: [VCardWriter.Version.v3, .v4])
    func linesAreAtMost75OctetsAndUnfoldToTheValue(version: VCardWriter.Version) throws {
        var contact = Contact(identifier: "fold-1")
        // Two-, three- and four-byte characters at every offset, so some land on the fold.
        let note = String(repeating: "é日本😀a", count: 60)
        contact.note = note
        contact.givenName = String(repeating: "Ωmega", count: 30)
        contact.organizationName = String(repeating: "x", count: 74) + "ü" + String(repeating: "y", count: 80)
        contact.imageData = Data((0..<3_000).map { UInt8($0 % 256) })
        let text = VCardWriter(version: version).write(contact)
        let lines = physicalLines(text)
        for line in lines {
            #expect(line.count <= 75)
            // A fold never cuts a UTF-8 sequence: each physical line is valid UTF-8 on its own.
            #expect(String(validating: line, as: UTF8.self) != nil)
        }
        #expect(lines.contains { $0.count == 75 })
        #expect(lines.filter { $0.first == 0x20 }.count > 10)
        let card = try readOne(text)
        #expect(card.contact.note == note)
        #expect(card.contact.givenName == contact.givenName)
        #expect(card.contact.organizationName == contact.organizationName)
        #expect(card.contact.imageData == contact.imageData)
    }

    @Test func unmappedPropertiesAreFoldedToo() throws {
        let long = "X-LONG:" + String(repeating: "ä", count: 100)
        let text = VCardWriter().write(Contact(identifier: "fold-2"), unmappedProperties: [long])
        #expect(physicalLines(text).allSatisfy { $0.count <= 75 })
        #expect(try readOne(text).unmappedProperties == [long])
    }

    @Test func foldingKeepsShortLinesWhole() {
        var writer = LineWriter()
        writer.fold(String(repeating: "a", count: 75))
        #expect(writer.text == String(repeating: "a", count: 75) + "\r\n")
        var longer = LineWriter()
        longer.fold(String(repeating: "a", count: 76))
        #expect(longer.text == String(repeating: "a", count: 75) + "\r\n a\r\n")
    }

    @Test func readerUnfoldsTabsAndSpaces() throws {
        let text = "BEGIN:VCARD\nVERSION:3.0\nFN:Jo\nNOTE:ab\n\tcd\n ef\nEND:VCARD\n"
        #expect(try readOne(text).contact.note == "abcdef")
    }

    /// A long head (name and parameters) and thousands of continuation lines that end in `=`: whether the line is
    /// quoted-printable was asked again at each one, a rescan of the head (20 KB × 10,000 lines took 23 s in a
    /// debug build; now each byte is looked at once). What the lines mean is unchanged: soft line breaks in a
    /// quoted-printable 2.1 NOTE, plain folding with `=` in the text in 3.0.
    @Test("Continuations after `=` under a long head are read once, quoted-printable or not")
    func longHeadsAndManyContinuations() throws {
        let head = String(repeating: "x", count: 20_000)
        let lines = 5_000
        let softBreaks =
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Q;P\r\nNOTE;X-P=\(head);ENCODING=QUOTED-PRINTABLE:a=\r\n"
            + String(repeating: "=C3=A9=\r\n", count: lines) + "z\r\nEND:VCARD\r\n"
        #expect(try readOne(softBreaks).contact.note == "a" + String(repeating: "é", count: lines) + "z")
        let folded =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:F\r\nNOTE;X-P=\(head):v=\r\n"
            + String(repeating: " w=\r\n", count: lines) + "END:VCARD\r\n"
        #expect(try readOne(folded).contact.note == "v=" + String(repeating: "w=", count: lines))
        // The colon may come on a continuation: the head is whole only then.
        let late =
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Q;P\r\nNOTE;ENCODING=\r\n QUOTED-PRINTABLE:a=\r\n=C3=A9\r\nEND:VCARD\r\n"
        #expect(try readOne(late).contact.note == "aé")
    }
}
