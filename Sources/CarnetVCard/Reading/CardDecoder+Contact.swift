import CarnetStore

extension CardDecoder {
    /// The contact holding everything mapped, identified by the UID when the store would accept it as an
    /// identifier.
    mutating func makeContact() -> Contact {
        applyFormattedName()
        var contact: Contact
        if let uid, Identifiers.isValid(uid) {
            contact = Contact(identifier: uid, contactType: contactType)
        } else {
            contact = Contact(contactType: contactType)
        }
        for key in ContactKey.stringKeys where !self[key].isEmpty { contact.setString(key, self[key]) }
        if let birthday { contact.birthday = birthday }
        if let nonGregorianBirthday { contact.nonGregorianBirthday = nonGregorianBirthday }
        if let imageData { contact.imageData = imageData }
        if !phoneNumbers.isEmpty { contact.phoneNumbers = orderedByPreference(phoneNumbers, .phoneNumbers) }
        if !emailAddresses.isEmpty { contact.emailAddresses = orderedByPreference(emailAddresses, .emailAddresses) }
        if !postalAddresses.isEmpty {
            contact.postalAddresses = orderedByPreference(postalAddresses, .postalAddresses)
        }
        if !urlAddresses.isEmpty { contact.urlAddresses = orderedByPreference(urlAddresses, .urlAddresses) }
        if !dates.isEmpty { contact.dates = dates }
        if !contactRelations.isEmpty { contact.contactRelations = contactRelations }
        if !socialProfiles.isEmpty { contact.socialProfiles = socialProfiles }
        var instantMessages = instantMessageAddresses
        // A set: looked up in the list per legacy line, N IMPP and N X-AIM lines were N² comparisons (20,000: 68 s).
        let known = Set(instantMessageAddresses.map(\.value))
        for (legacy, line) in zip(legacyInstantMessageAddresses, legacyInstantMessageLines)
        where !known.contains(legacy.value) {
            instantMessages.append(legacy)
            source(.instantMessageAddresses, line: line)
        }
        if !instantMessages.isEmpty { contact.instantMessageAddresses = instantMessages }
        return contact
    }

}
