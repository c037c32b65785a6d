import CarnetStore

/// The smallest update that makes a stored contact equal to an imported one: unchanged keys are left out, and
/// labeled values equal to a stored one keep its identifier, so re-importing the same card changes nothing.
enum ContactDiff {
    static func update(_ current: Contact, to imported: Contact) -> Contact? {
        var update = Contact(updating: current.identifier)
        // Text by bytes, as the store keeps it: a card that spells a name the other way (NFC, NFD) updates it.
        for key in ContactKey.stringKeys where !sameText(current.string(key), imported.string(key)) {
            update.setString(key, imported.string(key))
        }
        if current.contactType != imported.contactType { update.contactType = imported.contactType }
        if current.birthday != imported.birthday { update.birthday = imported.birthday }
        if current.nonGregorianBirthday != imported.nonGregorianBirthday {
            update.nonGregorianBirthday = imported.nonGregorianBirthday
        }
        if current.imageData != imported.imageData { update.imageData = imported.imageData }
        if current.thumbnailImageData != imported.thumbnailImageData {
            update.thumbnailImageData = imported.thumbnailImageData
        }
        if let list = reconcile(current.phoneNumbers, imported.phoneNumbers) { update.phoneNumbers = list }
        if let list = reconcile(current.emailAddresses, imported.emailAddresses) { update.emailAddresses = list }
        if let list = reconcile(current.postalAddresses, imported.postalAddresses) { update.postalAddresses = list }
        if let list = reconcile(current.urlAddresses, imported.urlAddresses) { update.urlAddresses = list }
        if let list = reconcile(current.dates, imported.dates) { update.dates = list }
        if let list = reconcile(current.contactRelations, imported.contactRelations) { update.contactRelations = list }
        if let list = reconcile(current.socialProfiles, imported.socialProfiles) { update.socialProfiles = list }
        if let list = reconcile(current.instantMessageAddresses, imported.instantMessageAddresses) {
            update.instantMessageAddresses = list
        }
        if let list = reconcile(current.vCardProperties, imported.vCardProperties) { update.vCardProperties = list }
        return update.modifiedKeys.isEmpty ? nil : update
    }

    /// The contact as `update` leaves `current`: what a later card with the same UID is compared with before
    /// either is saved (both in one batch, or in one strict commit).
    static func applying(_ update: Contact, to current: Contact) -> Contact {
        var result = current
        let keys = update.modifiedKeys
        for key in ContactKey.stringKeys where keys.contains(key) { result.setString(key, update.string(key)) }
        if keys.contains(.contactType) { result.contactType = update.contactType }
        if keys.contains(.birthday) { result.birthday = update.birthday }
        if keys.contains(.nonGregorianBirthday) { result.nonGregorianBirthday = update.nonGregorianBirthday }
        if keys.contains(.imageData) { result.imageData = update.imageData }
        if keys.contains(.thumbnailImageData) { result.thumbnailImageData = update.thumbnailImageData }
        if keys.contains(.phoneNumbers) { result.phoneNumbers = update.phoneNumbers }
        if keys.contains(.emailAddresses) { result.emailAddresses = update.emailAddresses }
        if keys.contains(.postalAddresses) { result.postalAddresses = update.postalAddresses }
        if keys.contains(.urlAddresses) { result.urlAddresses = update.urlAddresses }
        if keys.contains(.dates) { result.dates = update.dates }
        if keys.contains(.contactRelations) { result.contactRelations = update.contactRelations }
        if keys.contains(.socialProfiles) { result.socialProfiles = update.socialProfiles }
        if keys.contains(.instantMessageAddresses) { result.instantMessageAddresses = update.instantMessageAddresses }
        if keys.contains(.vCardProperties) { result.vCardProperties = update.vCardProperties }
        return result
    }

    /// The imported list with stored identifiers for values equal to stored ones; `nil` when nothing differs.
    static func reconcile<V>(_ stored: [LabeledValue<V>], _ imported: [LabeledValue<V>]) -> [LabeledValue<V>]? {
        let same =
            stored.count == imported.count
            && zip(stored, imported).allSatisfy(isSame)
        if same { return nil }
        var unused = stored
        return imported.map { value in
            var value = value
            if let index = unused.firstIndex(where: { isSame($0, value) }) {
                value.identifier = unused.remove(at: index).identifier
            }
            return value
        }
    }

    /// The same label and value (`stored`'s, then the imported one's), text by bytes. A structured value (an
    /// address, a relation) compares its fields as Swift does: a re-import that only respells one of them (NFC,
    /// NFD) leaves it as stored.
    private static func isSame<V>(_ stored: LabeledValue<V>, _ imported: LabeledValue<V>) -> Bool {
        guard stored.label.hasSameBytes(as: imported.label) else { return false }
        if let text = stored.value as? String, let otherText = imported.value as? String {
            return sameText(text, otherText)
        }
        if var address = stored.value as? PostalAddress, address.street.contains("\r") {
            address.street = unifyingLineBreaks(address.street)
            return address == imported.value as? PostalAddress
        }
        return stored.value == imported.value
    }

    /// Whether imported text is the stored text, byte for byte, but for line breaks: a vCard writes CR LF and a
    /// lone CR in a note or a street as its one line break (`\n`), and reads it back as LF. Compared by bytes, a
    /// re-import of one's own export updated every such contact and gave its address a new identifier (an outside
    /// tester's find); so such text stays as stored.
    static func sameText(_ stored: String, _ imported: String) -> Bool {
        stored.hasSameBytes(as: imported)
            || (stored.utf8.contains(0x0D) && unifyingLineBreaks(stored).hasSameBytes(as: imported))
    }

    /// `text` with CR LF and lone CRs as LF.
    static func unifyingLineBreaks(_ text: String) -> String {
        Escaping.replacing(text, lineBreak: "\n") { _, _ in nil }
    }
}
