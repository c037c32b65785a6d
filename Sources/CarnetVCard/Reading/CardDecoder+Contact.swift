import CarnetStore

extension CardDecoder {
    /// The contact holding everything mapped, identified by the UID when the store would accept it as an
    /// identifier.
    mutating func makeContact() -> Contact {
        applyFormattedName()
        var contact: Contact
        if let uid, Self.isValidIdentifier(uid) {
            contact = Contact(identifier: uid, contactType: contactType)
        } else {
            contact = Contact(contactType: contactType)
        }
        for key in ContactKey.stringKeys where !self[key].isEmpty { contact.setString(key, self[key]) }
        if let birthday { contact.birthday = birthday }
        if let nonGregorianBirthday { contact.nonGregorianBirthday = nonGregorianBirthday }
        if let imageData { contact.imageData = imageData }
        if !phoneNumbers.isEmpty { contact.phoneNumbers = phoneNumbers }
        if !emailAddresses.isEmpty { contact.emailAddresses = emailAddresses }
        if !postalAddresses.isEmpty { contact.postalAddresses = postalAddresses }
        if !urlAddresses.isEmpty { contact.urlAddresses = urlAddresses }
        if !dates.isEmpty { contact.dates = dates }
        if !contactRelations.isEmpty { contact.contactRelations = contactRelations }
        if !socialProfiles.isEmpty { contact.socialProfiles = socialProfiles }
        let instantMessages = instantMessageAddresses + legacyInstantMessageAddresses.filter { legacy in
            !instantMessageAddresses.contains { $0.value == legacy.value }
        }
        if !instantMessages.isEmpty { contact.instantMessageAddresses = instantMessages }
        return contact
    }

    /// The store's identifier rule: 1 to 128 characters from `A-Z a-z 0-9 . _ : -`.
    static func isValidIdentifier(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= StoreLimits.identifierBytes else { return false }
        return utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"),
                UInt8(ascii: "-"):
                true
            default: false
            }
        }
    }
}
