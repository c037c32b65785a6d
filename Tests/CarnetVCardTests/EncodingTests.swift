import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

@Suite("File encodings and line ends")
struct EncodingTests {
    private let card = "BEGIN:VCARD\nVERSION:3.0\nN:Łukasz;Zoë;;;\nNOTE:日本\nEND:VCARD\n"

    private func names(_ data: Data) throws -> [String] {
        let (cards, issues) = try VCardReader().read(data)
        #expect(issues.isEmpty, "\(issues)")
        return cards.map { "\($0.contact.givenName) \($0.contact.familyName) \($0.contact.note)" }
    }

    @Test func utf8WithAndWithoutBOM() throws {
        #expect(try names(Data(card.utf8)) == ["Zoë Łukasz 日本"])
        #expect(try names(Data([0xEF, 0xBB, 0xBF]) + Data(card.utf8)) == ["Zoë Łukasz 日本"])
    }

    @Test func utf16WithBOM() throws {
        let little = try #require(card.data(using: .utf16LittleEndian))
        let big = try #require(card.data(using: .utf16BigEndian))
        #expect(try names(Data([0xFF, 0xFE]) + little) == ["Zoë Łukasz 日本"])
        #expect(try names(Data([0xFE, 0xFF]) + big) == ["Zoë Łukasz 日本"])
    }

    @Test func lineEnds() throws {
        #expect(try names(Data(card.replacingOccurrences(of: "\n", with: "\r\n").utf8)) == ["Zoë Łukasz 日本"])
        #expect(try names(Data(card.replacingOccurrences(of: "\n", with: "\r").utf8)) == ["Zoë Łukasz 日本"])
    }

    @Test func charsetParameters() throws {
        var data = Data("BEGIN:VCARD\nVERSION:2.1\nN;CHARSET=ISO-8859-1:".utf8)
        data.append(contentsOf: [0x4D, 0xFC, 0x6C, 0x6C, 0x65, 0x72])  // Müller
        data.append(Data(";Ren".utf8))
        data.append(0xE9)
        data.append(Data("\nNOTE;CHARSET=windows-1252;ENCODING=QUOTED-PRINTABLE:=80 5 =93quoted=94\n".utf8))
        data.append(Data("TITLE;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Caf=C3=A9\nEND:VCARD\n".utf8))
        let card = try #require(try VCardReader().read(data).cards.first)
        #expect(card.contact.familyName == "Müller")
        #expect(card.contact.givenName == "René")
        #expect(card.contact.note == "€ 5 “quoted”")
        #expect(card.contact.jobTitle == "Café")
    }

    @Test func escapesByVersion() throws {
        let v3 = try readOne("BEGIN:VCARD\nVERSION:3.0\nFN:x\nNOTE:a\\nb\\,c\\;d\\\\e\\:f\\qg\nEND:VCARD\n")
        #expect(v3.contact.note == "a\nb,c;d\\e:f\\qg")
        // 2.1 knows only `\;`; its backslashes are literal.
        let v21 = try readOne("BEGIN:VCARD\nVERSION:2.1\nFN:x\nNOTE:C:\\new\\;x\nEND:VCARD\n")
        #expect(v21.contact.note == "C:\\new;x")
    }

    @Test func controlCharactersLeaveSingleLineFields() throws {
        let card = try readOne("BEGIN:VCARD\nVERSION:3.0\nN:Smith;Ann\\nMarie;;;\nORG:  Big\\nCo  \nFN:x\nEND:VCARD\n")
        #expect(card.contact.givenName == "Ann Marie")
        #expect(card.contact.organizationName == "Big Co")
    }

    @Test func parameterForms() throws {
        let text = """
            BEGIN:VCARD
            VERSION:4.0
            FN:P
            TEL;TYPE="home,fax":1
            TEL;type=work;type=fax:2
            item1.X-SOCIALPROFILE;TYPE=mastodon;X-USER="a;b:c":https://m.example/@a
            IMPP;X-SERVICE-TYPE=My^'Chat^':x-apple:me
            END:VCARD
            """
        let c = try readOne(text).contact
        #expect(c.phoneNumbers.map(\.label) == [ContactLabel.phoneHomeFax, ContactLabel.phoneWorkFax])
        #expect(
            c.socialProfiles.first?.value
                == SocialProfile(
                    urlString: "https://m.example/@a", username: "a;b:c", service: "mastodon"))
        #expect(c.instantMessageAddresses.first?.value == InstantMessageAddress(username: "me", service: "My\"Chat\""))
    }
}
