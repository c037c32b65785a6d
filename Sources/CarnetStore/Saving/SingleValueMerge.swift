/// How an update's single-value keys apply to the stored contact: the single-value half of the merge rules
/// (``LabeledValueMerge`` is the multi-value half). Pure, so the rules are tested apart from SQL.
///
/// - A key takes part only when the update sets it to another value than the stored one: setting a key to the
///   value it already has is no change, and never a conflict.
/// - Without a base revision the update wins (last writer wins).
/// - With a base revision, a changed key conflicts when another save changed it after the base: its last change
///   (or the contact's creation, when it has not changed since) is later than the base. Keys changed since the base
///   that the update leaves alone merge: the update writes only its own keys.
package enum SingleValueMerge {
    /// The keys of `changing` that conflict, in its order.
    ///
    /// - Parameters:
    ///   - changing: the keys whose value the update changes.
    ///   - keyRevisions: the revision of each key's last change, for keys changed after the contact was added.
    package static func conflicts(
        changing: [ContactKey], baseRevision: Int64?, createdRevision: Int64, keyRevisions: [ContactKey: Int64]
    ) -> [ContactKey] {
        guard let baseRevision else { return [] }
        return changing.filter { (keyRevisions[$0] ?? createdRevision) > baseRevision }
    }
}

extension Contact {
    /// Whether `update` sets a single-value key this stored contact holds (strings, contact type, birthdays) to
    /// another value; `nil` for keys a backend stores apart (images) and compares itself.
    package func singleValueDiffers(_ key: ContactKey, from update: Contact) -> Bool? {
        let (new, stored) = (update.values, values)
        if let slot = key.stringSlot { return new.strings[slot] != stored.strings[slot] }
        switch key {
        case .contactType: return new.contactType != stored.contactType
        case .birthday: return new.birthday != stored.birthday
        case .nonGregorianBirthday: return new.nonGregorianBirthday != stored.nonGregorianBirthday
        default: return nil
        }
    }
}
