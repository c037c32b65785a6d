import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

/// Issue 15, point 6 and the 2.1 parts of point 7: 2.1's encodings decoded so kept lines are valid in 3.0 and
/// 4.0; text without CHARSET read as Windows-1252; Android's `X-` custom labels.
@Suite("vCard 2.1 encodings and labels")
struct LegacyEncodingTests {
    static func outlookData(_ text: String) throws -> Data {
        try #require(text.data(using: .windowsCP1252))
    }

    @Test("Outlook's quoted-printable LABEL is kept decoded; exports in 3.0 and 4.0 read back the same")
    func quotedPrintableLabel() async throws {
        let fixture = try ImportFixture()
        try await fixture.importData(try Self.outlookData(FidelityCorpus.outlookLabel))
        let contact = try await fixture.contact(named: "Käthe")
        let label =
            "LABEL;TYPE=WORK;TYPE=PREF:Hauptstraße 1 = Eingang B\\, Hinterhof\\, 3. Stock\\n8001 Zürich\\nSchweiz"
        #expect(contact.vCardProperties.map(\.value) == [label, "X-MS-OL-DEFAULT-POSTAL-ADDRESS:2"])
        for version in [VCardWriter.Version.v3, .v4] {
            let text = try await fixture.export(version)
            #expect(!text.contains("QUOTED-PRINTABLE") && !text.contains("CHARSET"))
            #expect(try readOne(text).unmappedProperties == [label, "X-MS-OL-DEFAULT-POSTAL-ADDRESS:2"])
        }
    }

    @Test("Android: quoted-printable UTF-8 names, a custom TEL;X-Mobil 2 label, a quoted-printable kept line")
    func android() throws {
        let card = try readOne(FidelityCorpus.android)
        #expect(card.contact.givenName == "Jürgen" && card.contact.familyName == "Müller")
        #expect(card.contact.phoneNumbers.map(\.label) == [ContactLabel.phoneMobile, "Mobil 2"])
        #expect(
            card.unmappedProperties == ["X-ANDROID-CUSTOM:vnd.android.cursor.item/relation;Anna;14;;;;;;;;;;;;;"])
        let written = VCardWriter().write(card)
        #expect(written.contains("item1.X-ABLabel:Mobil 2\r\n"))
        #expect(try readOne(written).contact.phoneNumbers.map(\.label) == [ContactLabel.phoneMobile, "Mobil 2"])
    }

    @Test("2.1 text without CHARSET that is not UTF-8 is Windows-1252, in mapped and kept lines")
    func windows1252WithoutCharset() throws {
        let (cards, issues) = try VCardReader().read(try Self.outlookData(FidelityCorpus.outlookNoCharset))
        #expect(issues.isEmpty)
        let card = try #require(cards.first)
        #expect(card.contact.givenName == "Zoë" && card.contact.familyName == "Šimek")
        #expect(card.contact.note == "Café – “Grüße”")
        #expect(card.unmappedProperties == ["X-MS-CARDPICTURE-NOTE:Straße"])
        // 3.0 and 4.0 stay UTF-8 only.
        let v3 = Data("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Caf\u{E9}\r\nEND:VCARD\r\n".utf8.map { $0 == 0xC3 ? 0x20 : $0 })
        #expect(try VCardReader().read(v3).issues.count == 1)
    }

    /// 2.1 text has no lists, so its commas are text; a 3.0 or 4.0 reader takes a bare comma for a separator
    /// (vobject read a kept `X-PRICE:50,00` as `50`).
    @Test("A kept 2.1 line's commas are escaped, so 3.0 and 4.0 read one value")
    func keptCommas() throws {
        let card = try readOne(
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:B;A\r\nX-PRICE:50,00\r\nX-WHERE;HOME:Berlin, Mitte\r\n"
                + "X-PATH:C:\\a,b\r\nX-PARTS:a;b,c\r\nEND:VCARD\r\n")
        #expect(
            card.unmappedProperties == [
                #"X-PRICE:50\,00"#, #"X-WHERE;TYPE=HOME:Berlin\, Mitte"#, #"X-PATH:C:\\a\,b"#, #"X-PARTS:a;b\,c"#,
            ])
        for version in [VCardWriter.Version.v3, .v4] {
            let written = VCardWriter(version: version).write(card)
            let reread = try readOne(written)
            #expect(reread.unmappedProperties == card.unmappedProperties, "\(written)")
            // Read as a 3.0/4.0 list, each is one item with its commas.
            let items = reread.unmappedProperties.map { line in
                var bytes = Array(line.utf8)
                return bytes.withUnsafeMutableBufferPointer { buffer in
                    let buffer = UnsafeBufferPointer(buffer)
                    let parsed = try? ContentLineParser.parse(
                        RawLine(range: 0..<buffer.count, number: 1), in: buffer, cardLine: 1)
                    return parsed.flatMap { try? ValueDecoder(version: .v30, cardLine: 1).list($0) } ?? []
                }
            }
            #expect(items == [["50,00"], ["Berlin, Mitte"], [#"C:\a,b"#], ["a", "b,c"]])
        }
    }

    @Test("Android's 3.0 form of a custom label, TYPE=X-…")
    func android30CustomLabel() throws {
        let card = try readOne("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:A B\r\nTEL;TYPE=X-Mobil 2:+49 171 1\r\nEND:VCARD\r\n")
        #expect(card.contact.phoneNumbers.map(\.label) == ["Mobil 2"])
    }

    @Test("A kept 2.1 base64 line becomes a data: URI, which 3.0 and 4.0 read")
    func base64KeptAsDataURI() throws {
        let text = """
            BEGIN:VCARD
            VERSION:2.1
            N:Smith;Bob
            PHOTO;ENCODING=BASE64;TYPE=PNG:iVBORw0KGgo=
            LOGO;ENCODING=BASE64;TYPE=GIF:R0lGODlh
            END:VCARD

            """
        let card = try readOne(text)
        #expect(card.contact.imageData != nil)
        #expect(card.unmappedProperties == ["LOGO;TYPE=GIF;VALUE=uri:data:image/gif;base64,R0lGODlh"])
        for version in [VCardWriter.Version.v3, .v4] {
            #expect(
                try readOne(VCardWriter(version: version).write(card)).unmappedProperties == card.unmappedProperties)
        }
    }

    /// 2.1 has no backslash escapes but `\;`: a kept line's backslashes are characters. Kept verbatim when the line
    /// had no parameters, `C:\new\dir` was written into 3.0 and 4.0 exports as it stood, and read there as `C:`, a
    /// line break and `ew`.
    @Test("A kept 2.1 line's backslashes stay characters in 3.0 and 4.0, with or without parameters")
    func keptBackslashes() throws {
        let text =
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN:BS;A\r\nX-PATH:C:\\new\\dir\r\nX-PATH2;X-A=1:C:\\new\\dir\r\n"
            + "X-LIT:50\\,00\r\nX-PLAIN:nothing to escape\r\nEND:VCARD\r\n"
        let card = try readOne(text)
        #expect(
            card.unmappedProperties == [
                #"X-PATH:C:\\new\\dir"#, #"X-PATH2;X-A=1:C:\\new\\dir"#, #"X-LIT:50\\\,00"#,
                "X-PLAIN:nothing to escape",
            ])
        for version in [VCardWriter.Version.v3, .v4] {
            #expect(
                try readOne(VCardWriter(version: version).write(card)).unmappedProperties == card.unmappedProperties)
        }
    }
}
