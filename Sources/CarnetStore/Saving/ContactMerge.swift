import Foundation

/// One contact as ``ContactMerge`` sees it: its single values, its image and its labeled values as stored.
package struct MergeParticipant: Sendable {
    /// The single-value keys (``ContactKey/stringKeys``, the contact type and the birthdays).
    package var contact: Contact
    package var imageData: Data?
    package var thumbnailImageData: Data?
    /// The labeled values of each kind, in their stored order.
    package var values: [MultiValueKind: [StoredLabeledValue]]

    package init(
        contact: Contact, imageData: Data?, thumbnailImageData: Data?, values: [MultiValueKind: [StoredLabeledValue]]
    ) {
        self.contact = contact
        self.imageData = imageData
        self.thumbnailImageData = thumbnailImageData
        self.values = values
    }
}

/// What `mergeContacts` writes, decided before anything is written and the same on every backend.
///
/// The rules (the schema documents them):
/// - A single-value key keeps the surviving contact's value; an empty one takes the first absorbed contact's value
///   in the order given. Notes are the exception: each different note is kept, joined by a blank line. The image
///   (with its thumbnail) comes from the first contact that has one. The contact type is the survivor's.
/// - Multi-values are the union: the survivor's values, then each absorbed contact's values that no value already
///   kept duplicates (``duplicateKey(kind:value:)``). A value moves with its identifier and label, so an identifier
///   a client holds keeps naming the same value. Kept vCard UIDs stay with their own contact and go with it.
package struct ContactMerge: Sendable {
    /// A labeled value of an absorbed contact that moves to the survivor.
    package struct Move: Sendable, Equatable {
        package var kind: MultiValueKind
        package var identifier: String
        /// Its place in the survivor's list, after the survivor's own values.
        package var position: Int
    }

    /// The survivor's single-value keys that change, as an update (its ``Contact/modifiedKeys``).
    package var update: Contact
    package var moves: [Move] = []
    /// The multi-value keys whose list grows.
    package var changedValueKeys: [ContactKey] = []

    package init(into survivor: MergeParticipant, absorbing absorbed: [MergeParticipant]) throws {
        let id = survivor.contact.identifier
        update = Contact(updating: id)
        let current = survivor.contact.values
        for key in ContactKey.stringKeys {
            let kept = survivor.contact.storedString(key)
            let candidates = absorbed.map { $0.contact.storedString(key) }.filter { !$0.isEmpty }
            if key == .note {
                var notes = kept.isEmpty ? [] : [kept]
                for note in candidates where !notes.contains(note) { notes.append(note) }
                let merged = notes.joined(separator: "\n\n")
                if merged != kept { update.setString(key, merged) }
            } else if kept.isEmpty, let taken = candidates.first {
                update.setString(key, taken)
            }
        }
        if current.birthday == nil, let birthday = absorbed.lazy.compactMap(\.contact.values.birthday).first {
            update.birthday = birthday
        }
        if current.nonGregorianBirthday == nil,
            let date = absorbed.lazy.compactMap(\.contact.values.nonGregorianBirthday).first
        {
            update.nonGregorianBirthday = date
        }
        if survivor.imageData == nil, let source = absorbed.first(where: { $0.imageData != nil }) {
            update.imageData = source.imageData
            update.thumbnailImageData = source.thumbnailImageData
        }

        var tooMany: [String] = []
        for kind in MultiValueKind.allCases {
            let own = survivor.values[kind] ?? []
            var seen = Set(own.map { Self.duplicateKey(kind: kind, value: $0) })
            var position = (own.map(\.position).max() ?? -1) + 1
            var count = own.count
            for contact in absorbed {
                for value in contact.values[kind] ?? [] {
                    if kind == .vCardProperties, KeptVCardLine.isUID(value.value) { continue }
                    guard seen.insert(Self.duplicateKey(kind: kind, value: value)).inserted else { continue }
                    moves.append(Move(kind: kind, identifier: value.identifier, position: position))
                    position += 1
                    count += 1
                }
            }
            if count > own.count { changedValueKeys.append(kind.key) }
            if count > Validation.valueLimit(kind) { tooMany.append(kind.key.rawValue) }
        }
        var bad = Validation.contact(update, keys: update.modifiedKeys) + tooMany
        bad.sort()
        if !bad.isEmpty {
            throw StoreError(
                .validationFailed, "The merged contact would exceed a limit",
                affected: [id] + absorbed.map(\.contact.identifier), keyPaths: bad)
        }
    }

    /// Refuses a merge across containers (an account's contacts merge; contacts of different accounts would be
    /// linked), naming the survivor and the first contact of another container.
    package static func requireOneContainer<Container: Equatable>(
        survivor: (identifier: String, container: Container), absorbed: [(identifier: String, container: Container)]
    ) throws {
        if let other = absorbed.first(where: { $0.container != survivor.container }) {
            throw StoreError(
                .containmentScope, "Merged contacts must be in the same container",
                affected: [survivor.identifier, other.identifier])
        }
    }

    /// The normalised form two values of one kind are duplicates by: the email and phone search keys (folded
    /// email, the phone's national digits), folded text for the rest; a date or relation also by its label, since
    /// one date can be two anniversaries.
    package static func duplicateKey(kind: MultiValueKind, value: StoredLabeledValue) -> String {
        duplicateKey(kind: kind, label: value.label, value: value.value)
    }

    package static func duplicateKey(kind: MultiValueKind, label: String?, value: String) -> String {
        switch kind {
        case .emailAddresses, .phoneNumbers:
            if let key = EncodedLabeledValue.searchKey(kind: kind, value: value) { return key }
            return TextFolding.fold(value)
        case .dates, .contactRelations:
            return TextFolding.fold(label ?? "") + "\u{1F}" + TextFolding.fold(value)
        case .vCardProperties:
            return value
        case .postalAddresses, .urlAddresses, .socialProfiles, .instantMessageAddresses:
            return TextFolding.fold(value)
        }
    }
}
