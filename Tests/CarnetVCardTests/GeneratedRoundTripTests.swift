import CarnetStore
import CarnetTestSupport
import Foundation
import Testing

@testable import CarnetVCard

/// Generated contacts, written in 3.0 and 4.0 and read back: every value the store holds comes back as it was.
/// Values are drawn from pieces that exercise the escaping of each version (commas, semicolons, colons,
/// backslashes, quotes, carets, line breaks in the multi-line keys), combining marks (a `;`, `:` or `"` before one
/// is one Character with it, which escaping by Character missed: an outside tester's find), non-ASCII text and
/// custom labels. The seed is printed on failure.
@Suite("Generated vCard round trips")
struct GeneratedRoundTripTests {
    static let pieces = [
        "a", "Zoë", "O'Brien", ",", ";", "\\", ":", "日本", "😀", "é\u{301}", "\"", "=", "^", "x y", "Ärzte", "-", "\\n",
        "=0A", "item1.", "BEGIN:VCARD", "\u{301}", "\u{20DD}",
    ]

    /// Trimmed text of one to five pieces (the store keeps text trimmed; an empty value is no value).
    static func text(_ random: inout SeededRandom, lines: Bool = false) -> String {
        var parts: [String] = []
        for _ in 0..<random.int(1...5) {
            parts.append(random.pick(pieces)!)
            if lines, random.chance(20) { parts.append(random.chance(50) ? "\n" : "\t") }
        }
        let joined = parts.joined(separator: random.chance(50) ? " " : "")
        let trimmed = joined.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? "a" : trimmed
    }

    static func label(_ random: inout SeededRandom) -> String? {
        let known = [ContactLabel.home, ContactLabel.work, ContactLabel.other, ContactLabel.phoneMobile, nil]
        return random.chance(70) ? random.pick(known)! : text(&random)
    }

    static func contact(_ random: inout SeededRandom, _ index: Int) -> Contact {
        var contact = Contact(identifier: "gen-\(index)")
        let keys: [WritableKeyPath<Contact, String>] = [
            \.namePrefix, \.givenName, \.middleName, \.familyName, \.nameSuffix, \.nickname, \.organizationName,
            \.departmentName, \.jobTitle, \.phoneticGivenName, \.phoneticFamilyName,
        ]
        for key in keys where random.chance(60) { contact[keyPath: key] = text(&random) }
        if contact.givenName.isEmpty && contact.familyName.isEmpty { contact.givenName = text(&random) }
        if random.chance(50) { contact.note = text(&random, lines: true) }
        // Values a client may save that mean something to a vCard reader: a scheme it takes off, a backslash
        // before `n` in a URI (no escape there), Apple's `x-apple:` form (outside testers' finds).
        contact.phoneNumbers = (0..<random.int(0...3)).map {
            LabeledValue(
                label: label(&random), value: random.chance(80) ? "+1 555 \(1000 + $0)" : random.pick(trickyPhones)!)
        }
        contact.emailAddresses = (0..<random.int(0...2)).map {
            LabeledValue(
                label: label(&random), value: random.chance(80) ? "user\($0)@example.com" : random.pick(trickyEmails)!)
        }
        contact.urlAddresses = (0..<random.int(0...2)).map {
            LabeledValue(
                label: label(&random),
                value: random.chance(70) ? "https://example.com/\($0)?q=a,b;c" : random.pick(trickyURLs)!)
        }
        contact.postalAddresses = (0..<random.int(0...2)).map { _ in
            LabeledValue(
                label: label(&random),
                value: PostalAddress(
                    street: text(&random, lines: true), city: text(&random),
                    state: random.chance(50) ? text(&random) : "",
                    postalCode: random.chance(50) ? "80\(random.int(10...99))" : "", country: text(&random)))
        }
        contact.instantMessageAddresses = (0..<random.int(0...2)).map { _ in
            LabeledValue(
                label: label(&random),
                value: InstantMessageAddress(
                    username: text(&random), service: random.pick(["Jabber", "AIM", "Skype", "MSN", "Yahoo", "QQ"])!))
        }
        contact.socialProfiles = (0..<random.int(0...2)).map { _ in
            LabeledValue(
                label: label(&random),
                value: SocialProfile(
                    urlString: random.chance(30) ? random.pick(trickyURLs)! : "",
                    username: text(&random), userIdentifier: random.chance(50) ? text(&random) : "",
                    service: random.pick(["Twitter", "Facebook", "LinkedIn", "Flickr"])!))
        }
        return contact
    }

    static let trickyPhones = ["tel:+15550100", "TEL:+1-555-0101", "+1 555 0102;ext=3", "0102,,3", "tel:"]
    static let trickyEmails = ["mailto:a@example.com", "MAILTO:b@example.com", "c+d@example.com", "mailto:"]
    static let trickyURLs = [
        "http://h/a\\nb", "file:///C:\\new", "x-apple:foo", "https://e.com/a\\,b", "https://e.com/%20x",
        "urn:uuid:1234", "mailto:x@example.com",
    ]

    @Test("Generated contacts come back from 3.0 and 4.0 with every value as it was")
    func roundTrips() throws {
        let seed = SeededRandom.seed(from: "CARNET_TEST_SEED")
        var random = SeededRandom(seed: seed)
        for index in 0..<300 {
            let contact = Self.contact(&random, index)
            for version in [VCardWriter.Version.v3, .v4] {
                let text = VCardWriter(version: version).write(contact)
                let read = try readOne(text)
                #expect(
                    values(of: read.contact) == values(of: contact),
                    "seed \(seed) contact \(index) \(version):\n\(text)")
                #expect(read.unmappedProperties.isEmpty, "seed \(seed) contact \(index) \(version):\n\(text)")
                #expect(read.warnings.isEmpty, "\(read.warnings) seed \(seed) contact \(index) \(version):\n\(text)")
            }
        }
    }

    /// Generated files of generated cards, mutated where vCard's structure lives (line breaks, colons, semicolons,
    /// folds, quotes, escapes, BEGIN and END): the reader must not trap, must account for every card (read or
    /// reported with its line), and a card it reads must be one the store takes whole, its values over any limit
    /// kept aside.
    @Test("Mutated files: every card read or reported, and every card read storable")
    func mutatedFiles() throws {
        let seed = SeededRandom.seed(from: "CARNET_TEST_SEED")
        var random = SeededRandom(seed: seed)
        let inserts = [
            "\r\n", "\r\n ", ":", ";", ",", "\\", "\"", "=", "=\r\n", "\r\nEND:VCARD\r\n", "\r\nBEGIN:VCARD\r\n",
            "\u{0}", "\u{1B}", ";ENCODING=QUOTED-PRINTABLE", ";CHARSET=UTF-8", "item1.", "X-ABLabel:", "TEL:",
            String(repeating: "x", count: 2_000),
        ]
        for round in 0..<150 {
            let cards = (0..<random.int(1...4)).map {
                VCardWriter(version: random.chance(50) ? .v3 : .v4).write(Self.contact(&random, round * 10 + $0))
            }
            var bytes = Array(cards.joined().utf8)
            for _ in 0..<random.int(1...6) {
                let at = random.int(0...bytes.count)
                if random.chance(30), at < bytes.count {
                    bytes.removeSubrange(at..<min(bytes.count, at + random.int(1...8)))
                } else {
                    bytes.insert(contentsOf: Array(random.pick(inserts)!.utf8), at: at)
                }
            }
            let context = "seed \(seed) round \(round):\n\(String(decoding: bytes, as: UTF8.self).prefix(3_000))"
            for result in VCardReader().cards(from: Data(bytes)) {
                switch result {
                case .success(let card):
                    #expect(card.unresolvedProblems.isEmpty, "\(card.unresolvedProblems) \(context)")
                case .failure(let issue):
                    #expect(issue.line >= 1 && !issue.message.isEmpty, "\(context)")
                }
            }
        }
    }
}
