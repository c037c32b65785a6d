import CarnetStore

/// The smallest update that makes a stored contact equal to an imported one: unchanged keys are left out, and
/// labeled values equal to a stored one keep its identifier, so re-importing the same card changes nothing.
enum ContactDiff {
    static func update(_ current: Contact, to imported: Contact) -> Contact? {
        var update = Contact(updating: current.identifier)
        for key in ContactKey.stringKeys where current.string(key) != imported.string(key) {
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

    /// The imported list with stored identifiers for values equal to stored ones; `nil` when nothing differs.
    static func reconcile<V>(_ stored: [LabeledValue<V>], _ imported: [LabeledValue<V>]) -> [LabeledValue<V>]? {
        let same =
            stored.count == imported.count
            && zip(stored, imported).allSatisfy { $0.label == $1.label && $0.value == $1.value }
        if same { return nil }
        var unused = stored
        return imported.map { value in
            var value = value
            if let index = unused.firstIndex(where: { $0.label == value.label && $0.value == value.value }) {
                value.identifier = unused.remove(at: index).identifier
            }
            return value
        }
    }
}
