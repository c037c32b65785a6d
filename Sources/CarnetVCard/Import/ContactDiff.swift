import CarnetStore

/// The smallest update that makes a stored contact equal to an imported one: unchanged keys are left out, and
/// labeled values equal to a stored one keep its identifier, so re-importing the same card changes nothing.
enum ContactDiff {
    static func update(_ current: Contact, to imported: Contact) -> Contact? {
        var update = Contact(updating: current.identifier)
        // Text by bytes, as the store keeps it: a card that spells a name the other way (NFC, NFD) updates it.
        for key in ContactKey.stringKeys where !current.string(key).hasSameBytes(as: imported.string(key)) {
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

    /// The same label and value, text by bytes. A structured value (an address, a relation) compares its fields as
    /// Swift does: a re-import that only respells one of them (NFC, NFD) leaves it as stored.
    private static func isSame<V>(_ one: LabeledValue<V>, _ other: LabeledValue<V>) -> Bool {
        guard one.label.hasSameBytes(as: other.label) else { return false }
        if let text = one.value as? String, let otherText = other.value as? String {
            return text.hasSameBytes(as: otherText)
        }
        return one.value == other.value
    }
}
