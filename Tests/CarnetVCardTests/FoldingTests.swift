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
}
