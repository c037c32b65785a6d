import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

@Suite("Streaming")
struct StreamingTests {
    @Test func cardsComeOneAtATimeInFileOrder() throws {
        var text = ""
        for index in 0..<1_000 { text += "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Person;\(index);;;\r\nEND:VCARD\r\n" }
        text += "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:never ends\r\n"
        var iterator = VCardReader().cards(from: Data(text.utf8)).makeIterator()
        let next = iterator.next()
        let first = try #require(next).get()
        #expect(first.contact.givenName == "0")
        #expect(first.line == 1)
        var count = 1
        var failures: [VCardIssue] = []
        while let result = iterator.next() {
            switch result {
            case .success(let card):
                #expect(card.contact.givenName == String(count))
                #expect(card.line == count * 4 + 1)
                count += 1
            case .failure(let issue): failures.append(issue)
            }
        }
        #expect(count == 1_000)
        #expect(failures.map(\.line) == [4_001])
        #expect(iterator.next() == nil)
    }

    @Test func sequenceCanBeIteratedTwice() {
        let sequence = VCardReader().cards(from: Data(Corpus.appleCompany.utf8))
        #expect(Array(sequence).count == 1)
        #expect(Array(sequence).count == 1)
    }

    @Test func addressExtrasAsParameters() throws {
        let text = """
            BEGIN:VCARD
            VERSION:3.0
            FN:A
            ADR;TYPE=HOME;X-APPLE-SUBLOCALITY="Le Marais";X-APPLE-SUBADMINISTRATIVEAREA=Paris;CC=FR:;;1 Rue X;Paris;;75004;France
            END:VCARD
            """
        let address = try #require(try readOne(text).contact.postalAddresses.first)
        #expect(address.label == ContactLabel.home)
        #expect(
            address.value
                == PostalAddress(
                    street: "1 Rue X", subLocality: "Le Marais", city: "Paris", subAdministrativeArea: "Paris",
                    postalCode: "75004", country: "France", isoCountryCode: "FR"))
    }
}
