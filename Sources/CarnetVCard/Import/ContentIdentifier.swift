import CarnetStore

/// An identifier derived from a contact's values: what a card without a UID is known by, so the same card
/// imported twice is one contact. Two 64-bit FNV-1a hashes with different offsets make 128 bits.
enum ContentIdentifier {
    static func make(_ contact: Contact) -> String {
        var text = "\(contact.contactType.rawValue)\u{1}"
        for key in ContactKey.stringKeys { text += contact.string(key) + "\u{1}" }
        text += (contact.birthday.map { "\($0)" } ?? "") + "\u{1}" + (contact.nonGregorianBirthday.map { "\($0)" } ?? "")
        func add<V>(_ values: [LabeledValue<V>]) {
            for value in values { text += "\u{2}\(value.label ?? "")\u{3}\(value.value)" }
            text += "\u{1}"
        }
        add(contact.phoneNumbers)
        add(contact.emailAddresses)
        add(contact.postalAddresses)
        add(contact.urlAddresses)
        add(contact.dates)
        add(contact.contactRelations)
        add(contact.socialProfiles)
        add(contact.instantMessageAddresses)
        add(contact.vCardProperties)
        text += "\(contact.imageData?.count ?? 0)"
        let high = fnv(text, offset: 0xCBF2_9CE4_8422_2325), low = fnv(text, offset: 0x8422_2325_CBF2_9CE4)
        return "vcard-" + hex(high) + hex(low)
    }

    private static func fnv(_ text: String, offset: UInt64) -> UInt64 {
        var hash = offset
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
