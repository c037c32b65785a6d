import Foundation

/// How a unified contact's values are put together from its members, the same on every backend.
///
/// The rules (the schema documents them):
/// - The name keys (``nameKeys``) come together from the member preferred for name, so the unified contact shows
///   and sorts by one person's spelling of the name.
/// - The image (with its thumbnail) comes from the member preferred for image when it has one, else from the
///   first member in value order that has one.
/// - Every other single value comes from the first member in value order (``LinkGroup/valueOrder``) that has it.
/// - Multi-values are the union in value order, a value left out when one already kept duplicates it
///   (``ContactMerge/duplicateKey(kind:label:value:)``); each keeps its member's identifier and label, so an update
///   through the unified contact reaches the member that holds the value.
package enum UnifiedContact {
    /// The keys taken together from the name-preferred member.
    package static let nameKeys: [ContactKey] = [
        .contactType, .namePrefix, .givenName, .middleName, .familyName, .previousFamilyName, .nameSuffix, .nickname,
        .phoneticGivenName, .phoneticMiddleName, .phoneticFamilyName, .phoneticOrganizationName, .organizationName,
    ]
    package static let imageKeys: [ContactKey] = [.imageData, .thumbnailImageData, .imageDataAvailable]

    /// The keys to read from each member to put together `keys`: an image key also needs to know who has one.
    package static func memberKeys(for keys: ContactKeySet) -> ContactKeySet {
        var keys = keys
        if imageKeys.contains(where: keys.contains) { keys.insert(.imageDataAvailable) }
        return keys
    }

    /// The unified contact of `group`, from its members read with ``memberKeys(for:)``. Members missing from
    /// `members` (deleted since the group was read) are left out.
    package static func synthesize(_ group: LinkGroup, members: [String: Contact], keys: ContactKeySet) -> Contact {
        let ordered = group.valueOrder.compactMap { members[$0] }
        var unified = Contact(fetched: group.identifier, keys: keys)
        unified.linkedContactIdentifiers = group.members
        guard let named = members[group.preferredForName] ?? ordered.first else { return unified }
        unified.containerIdentifier = named.containerIdentifier
        unified.revision = ordered.map(\.revision).max() ?? 0
        unified.createdAt = ordered.compactMap(\.createdAt).min()
        unified.modifiedAt = ordered.compactMap(\.modifiedAt).max()
        for key in ContactKey.stringKeys where keys.contains(key) {
            let source = nameKeys.contains(key) ? named : ordered.first { !$0.storedString(key).isEmpty }
            if let source { unified.values.strings[key.stringSlot!] = source.storedString(key) }
        }
        if keys.contains(.contactType) { unified.values.contactType = named.values.contactType }
        if keys.contains(.birthday) { unified.values.birthday = ordered.lazy.compactMap(\.values.birthday).first }
        if keys.contains(.nonGregorianBirthday) {
            unified.values.nonGregorianBirthday = ordered.lazy.compactMap(\.values.nonGregorianBirthday).first
        }
        if imageKeys.contains(where: keys.contains), let source = imageSource(group, ordered, members) {
            unified.values.imageData = source.values.imageData
            unified.values.thumbnailImageData = source.values.thumbnailImageData
            unified.values.imageDataAvailable = source.values.imageDataAvailable
        }
        for kind in MultiValueKind.allCases where keys.contains(kind.key) {
            if let path = textValues(kind) {
                // Values that are their own encoding: put together as they are, with no round trip.
                var values = ordered.flatMap { $0.values[keyPath: path] }
                values = deduplicated(kind, values, label: \.label, value: \.value)
                unified.values[keyPath: path] = values
                unified.availableKeys.insert(kind.key)
            } else {
                unified.setEncodedValues(kind, union(kind, ordered).map(\.value))
            }
        }
        return unified
    }

    /// Where the values of a kind stored as text (their own encoding) are.
    private static func textValues(_ kind: MultiValueKind) -> WritableKeyPath<Contact.Values, [LabeledValue<String>]>? {
        switch kind {
        case .phoneNumbers: \.phoneNumbers
        case .emailAddresses: \.emailAddresses
        case .urlAddresses: \.urlAddresses
        case .vCardProperties: \.vCardProperties
        default: nil
        }
    }

    /// The member whose image the unified contact shows, if any has one.
    package static func imageSource(_ group: LinkGroup, _ ordered: [Contact], _ members: [String: Contact])
        -> Contact?
    {
        if let preferred = members[group.preferredForImage], preferred.values.imageDataAvailable { return preferred }
        return ordered.first { $0.values.imageDataAvailable }
    }

    /// The union of one kind's values in value order, each with the member that holds it.
    package static func union(_ kind: MultiValueKind, _ ordered: [Contact]) -> [(
        member: String, value: EncodedLabeledValue
    )] {
        var result: [(member: String, value: EncodedLabeledValue)] = []
        for member in ordered {
            for value in member.encodedValues(kind) { result.append((member.identifier, value)) }
        }
        return deduplicated(kind, result, label: \.value.label, value: \.value.value)
    }

    /// `items` less each one whose value duplicates one kept before it (``ContactMerge/duplicateKey(kind:label:value:)``).
    private static func deduplicated<Item>(
        _ kind: MultiValueKind, _ items: [Item], label: (Item) -> String?, value: (Item) -> String
    ) -> [Item] {
        guard items.count > 1 else { return items }
        // A unified contact holds a handful of values: comparing each key with the few kept is cheaper than
        // hashing them, and a set takes over only for long lists.
        let keys = items.map { ContactMerge.duplicateKey(kind: kind, label: label($0), value: value($0)) }
        var kept: [Int] = []
        kept.reserveCapacity(items.count)
        if items.count <= 16 {
            for index in keys.indices where !kept.contains(where: { keys[$0] == keys[index] }) { kept.append(index) }
        } else {
            var seen = Set<String>(minimumCapacity: keys.count)
            for index in keys.indices where seen.insert(keys[index]).inserted { kept.append(index) }
        }
        return kept.count == items.count ? items : kept.map { items[$0] }
    }
}
