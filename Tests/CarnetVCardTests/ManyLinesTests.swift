import Testing

@testable import CarnetVCard

/// Cards with thousands of lines of one kind, which the reader once read in time quadratic in them: each address
/// read every helper line of its group, and each legacy IM line was looked up in the list of IMPP lines. What the
/// lines mean is checked at that scale (a hostile client's shapes: 4,000 of each took 29 s and 20,000 68 s).
@Suite("Cards with thousands of lines")
struct ManyLinesTests {
    @Test("Addresses sharing a group with its Apple helper lines all get the helpers' fields, the last one winning")
    func addressesSharingHelpers() throws {
        let count = 3_000
        var text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Helpers\r\nb.ADR:;;1 Other St;City;;;\r\n"
        for index in 0..<count { text += "a.ADR:;;\(index) Main St;Town;;;\r\n" }
        text += "a.X-ABADR:us\r\n" + String(repeating: "a.X-APPLE-SUBLOCALITY:Old\r\n", count: count)
        text += "a.X-APPLE-SUBLOCALITY:Downtown\r\nEND:VCARD\r\n"
        let card = try readOne(text)
        // The store's 100 addresses map; the rest are kept as lines.
        let addresses = card.contact.postalAddresses.map(\.value)
        #expect(addresses.count == 100)
        #expect(addresses.first?.isoCountryCode == "" && addresses.first?.street == "1 Other St")
        #expect(addresses.dropFirst().allSatisfy { $0.isoCountryCode == "us" && $0.subLocality == "Downtown" })
    }

    @Test("Legacy IM lines join the IMPP ones unless they repeat one")
    func legacyInstantMessages() throws {
        var text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Chat\r\n"
        for index in 0..<60 { text += "IMPP;X-SERVICE-TYPE=AIM:aim:user\(index)\r\n" }
        // Thousands that repeat an IMPP address, then 40 new ones, which fill the store's 100.
        for index in 0..<5_000 { text += "X-AIM:user\(index % 60)\r\n" }
        for index in 60..<100 { text += "X-AIM:user\(index)\r\n" }
        text += "END:VCARD\r\n"
        let addresses = try readOne(text).contact.instantMessageAddresses.map(\.value.username)
        #expect(addresses == (0..<100).map { "user\($0)" })
    }
}
