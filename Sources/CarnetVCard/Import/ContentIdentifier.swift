import CarnetStore

/// An identifier derived from a contact's values: what a card without a UID is known by, so the same card
/// imported twice is one contact. Two 64-bit FNV-1a hashes with different offsets make 128 bits; values are fed
/// field by field, with separators, so no two different contacts share an input.
enum ContentIdentifier {
    static func make(_ contact: Contact) -> String {
        var hash = Hash()
        hash.add(String(contact.contactType.rawValue))
        for key in ContactKey.stringKeys { hash.add(contact.string(key)) }
        for date in [contact.birthday, contact.nonGregorianBirthday] { hash.add(date) }
        hash.addList(contact.phoneNumbers) { $0.add($1) }
        hash.addList(contact.emailAddresses) { $0.add($1) }
        hash.addList(contact.urlAddresses) { $0.add($1) }
        hash.addList(contact.postalAddresses) { hash, a in
            for field in [
                a.street, a.subLocality, a.city, a.subAdministrativeArea, a.state, a.postalCode, a.country,
                a.isoCountryCode,
            ] { hash.add(field) }
        }
        hash.addList(contact.dates) { $0.add($1) }
        hash.addList(contact.contactRelations) { $0.add($1.name) }
        hash.addList(contact.socialProfiles) { hash, p in
            for field in [p.urlString, p.username, p.userIdentifier, p.service] { hash.add(field) }
        }
        hash.addList(contact.instantMessageAddresses) { hash, a in
            hash.add(a.username)
            hash.add(a.service)
        }
        hash.addList(contact.vCardProperties) { $0.add($1) }
        hash.add(String(contact.imageData?.count ?? -1))
        return "vcard-" + hex(hash.high) + hex(hash.low)
    }

    struct Hash {
        var high: UInt64 = 0xCBF2_9CE4_8422_2325
        var low: UInt64 = 0x8422_2325_CBF2_9CE4

        mutating func byte(_ value: UInt8) {
            high = (high ^ UInt64(value)) &* 0x0000_0100_0000_01B3
            low = (low ^ UInt64(value)) &* 0x0000_0100_0000_01B3
        }

        mutating func add(_ text: String) {
            for value in text.utf8 { byte(value) }
            byte(0x01)
        }

        mutating func add(_ date: ContactDate?) {
            guard let date else { return add("") }
            add("\(date.calendar)|\(date.era ?? -1)|\(date.year ?? -1)|\(date.month)|\(date.day)|\(date.isLeapMonth)")
        }

        mutating func addList<V>(_ values: [LabeledValue<V>], _ value: (inout Hash, V) -> Void) {
            for item in values {
                byte(0x02)
                add(item.label ?? "\u{0}")
                value(&self, item.value)
            }
            byte(0x03)
        }
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
