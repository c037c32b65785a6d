import CarnetStore
import Foundation

/// Generates a deterministic, realistic contact list: person `i` of seed `s` is always the same person.
struct DataGenerator: Sendable {
    struct Name: Sendable {
        var text: String
        /// Lowercase ASCII, for email addresses: "Łukasz" → "lukasz".
        var ascii: String
    }

    let seed: UInt64
    let given: [Name]
    let family: [Name]

    init(seed: UInt64) {
        self.seed = seed
        given = Names.given.map { Name(text: $0, ascii: Self.ascii($0)) }
        family = Names.allFamily.map { Name(text: $0, ascii: Self.ascii($0)) }
    }

    /// The `index`th contact of the data set (`stream` 0) or of another stream (saves made by the benchmark).
    func person(_ index: Int, stream: UInt64 = 0) -> Person {
        var rng = SplitMix64(seed: seed, stream: stream, index: index)
        var person = Person(identifier: nil)
        if rng.chance(0.03) {
            person.isOrganization = true
            person.organizationName = organization(&rng)
        } else {
            let given = rng.skewed(self.given)
            let family = rng.skewed(self.family)
            person.givenName = rng.chance(0.98) ? given.text : ""
            person.familyName = family.text
            if rng.chance(0.10) { person.middleName = rng.pick(Names.middle) }
            if rng.chance(0.05) { person.nickname = rng.pick(Names.nicknames) }
            if rng.chance(0.30) {
                person.organizationName = organization(&rng)
                person.jobTitle = rng.pick(Names.jobTitles)
            }
            if rng.chance(0.35) {
                person.birthday = ContactDate(
                    year: rng.chance(0.8) ? rng.int(1935...2012) : nil, month: rng.int(1...12), day: rng.int(1...28))
            }
            for _ in 0..<rng.int(1...3) {
                person.emails.append(.init(label: rng.pick(Self.emailLabels), value: email(given, family, &rng)))
            }
        }
        for _ in 0..<rng.int(1...3) {
            person.phones.append(.init(label: rng.pick(Self.phoneLabels), value: PhoneFormats.random(&rng)))
        }
        if person.isOrganization {
            person.emails.append(
                .init(label: ContactLabel.work, value: "contact@\(Self.ascii(person.organizationName)).com"))
        }
        for _ in 0..<rng.int(0...2) {
            person.addresses.append(
                .init(label: rng.pick([ContactLabel.home, ContactLabel.work]), value: address(&rng)))
        }
        return person
    }

    static let phoneLabels = [
        ContactLabel.phoneMobile, ContactLabel.home, ContactLabel.work, ContactLabel.phoneiPhone,
        ContactLabel.phoneMain,
    ]
    static let emailLabels = [ContactLabel.home, ContactLabel.work, ContactLabel.other, ContactLabel.emailiCloud]

    private func organization(_ rng: inout SplitMix64) -> String {
        let words = Names.organizationWords
        let name = rng.chance(0.5) ? rng.pick(words) : rng.pick(words) + " " + rng.pick(words)
        let suffix = rng.pick(Names.organizationSuffixes)
        return suffix.isEmpty ? name : name + " " + suffix
    }

    private func email(_ given: Name, _ family: Name, _ rng: inout SplitMix64) -> String {
        let g = given.ascii.isEmpty ? "user" : given.ascii
        let f = family.ascii.isEmpty ? "mail" : family.ascii
        let local: String
        switch rng.int(0..<5) {
        case 0: local = "\(g).\(f)"
        case 1: local = "\(g.prefix(1))\(f)\(rng.int(1...99))"
        case 2: local = "\(g)_\(f)\(rng.int(1940...2012))"
        case 3: local = "\(f).\(g)\(rng.int(1...999))"
        default: local = "\(g)\(rng.int(1...9999))"
        }
        var address = "\(local)@\(rng.skewed(Names.emailDomains))"
        // Some people type their address capitalized; the search is case-insensitive.
        if rng.chance(0.15) { address = address.prefix(1).uppercased() + address.dropFirst() }
        return address
    }

    private func address(_ rng: inout SplitMix64) -> PostalAddress {
        let (city, postalPrefix, country, iso) = rng.pick(Names.cities)
        return PostalAddress(
            street: "\(rng.int(1...220)) \(rng.pick(Names.streets))", city: city,
            postalCode: postalPrefix + String(rng.int(0...999)).leftPadded(3), country: country, isoCountryCode: iso)
    }

    /// Lowercase ASCII letters and digits of a name, for email addresses.
    static func ascii(_ text: String) -> String {
        var out = ""
        for scalar in text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).unicodeScalars {
            switch scalar {
            case "a"..."z", "0"..."9": out.unicodeScalars.append(scalar)
            case "ł": out += "l"
            case "ø": out += "o"
            case "æ": out += "ae"
            case "œ": out += "oe"
            case "ß": out += "ss"
            case "đ", "ð": out += "d"
            case "ı": out += "i"
            case "þ": out += "th"
            default: break
            }
        }
        return out
    }
}
