/// How an update's single-value keys apply to the stored contact: the single-value half of the merge rules
/// (``LabeledValueMerge`` is the multi-value half). Pure, so the rules are tested apart from SQL.
///
/// - A key is written only when the update sets it to another value than the stored one: setting a key to the
///   value it already has writes nothing.
/// - Without a base revision the update wins (last writer wins).
/// - With a base revision, a key the update sets conflicts when another save changed it after the base: its last
///   change (or the contact's creation, when it has not changed since) is later than the base. That holds even when
///   the other save left the value the update sets: two clients that read the same note and both saved it plus one
///   both succeeded, and one increment was lost. Keys changed since the base that the update leaves alone merge:
///   the update writes only its own keys.
package enum SingleValueMerge {
    /// The keys of `setting` that conflict, in its order.
    ///
    /// - Parameters:
    ///   - setting: the single-value keys the update sets, whether or not to their stored values.
    ///   - keyRevisions: the revision of each key's last change, for keys changed after the contact was added.
    package static func conflicts(
        setting: [ContactKey], baseRevision: Int64?, createdRevision: Int64, keyRevisions: [ContactKey: Int64]
    ) -> [ContactKey] {
        guard let baseRevision else { return [] }
        return setting.filter { (keyRevisions[$0] ?? createdRevision) > baseRevision }
    }
}

extension Contact {
    /// Whether `update` sets a single-value key this stored contact holds (strings, contact type, birthdays) to
    /// another value; `nil` for keys a backend stores apart (images) and compares itself.
    package func singleValueDiffers(_ key: ContactKey, from update: Contact) -> Bool? {
        let (new, stored) = (update.values, values)
        // By bytes: Swift's `!=` takes NFC and NFD spellings for one, so an update to the other was dropped.
        if let slot = key.stringSlot { return !new.strings[slot].hasSameBytes(as: stored.strings[slot]) }
        switch key {
        case .contactType: return new.contactType != stored.contactType
        case .birthday: return new.birthday != stored.birthday
        case .nonGregorianBirthday: return new.nonGregorianBirthday != stored.nonGregorianBirthday
        default: return nil
        }
    }
}
