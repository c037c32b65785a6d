/// A labeled value in its storage form: the value encoded as one string, whatever its type.
///
/// Merging, comparing and writing work on this form, so they are written once for all eight multi-value kinds.
package struct EncodedLabeledValue: Hashable, Sendable {
    package var identifier: String?
    package var label: String?
    package var value: String

    package init(identifier: String?, label: String?, value: String) {
        self.identifier = identifier
        self.label = label
        self.value = value
    }

    /// Separates the fields of structured values; validation refuses it (a control character) inside fields.
    package static let fieldSeparator: Character = "\u{1F}"

    package static func join(_ fields: [String]) -> String { fields.joined(separator: String(fieldSeparator)) }

    package static func split(_ value: String, count: Int) -> [String] {
        // By bytes: the separator is one ASCII byte that no other character's encoding contains, and splitting
        // by Characters would run grapheme breaking over every address read.
        var fields: [String] = []
        fields.reserveCapacity(count)
        var start = value.utf8.startIndex
        var index = start
        let end = value.utf8.endIndex
        while index != end {
            if value.utf8[index] == 0x1F {
                fields.append(String(value[start..<index]))
                start = value.utf8.index(after: index)
            }
            index = value.utf8.index(after: index)
        }
        fields.append(String(value[start..<end]))
        while fields.count < count { fields.append("") }
        return fields
    }

    /// The normalized key the email and phone searches look values up by.
    package static func searchKey(kind: MultiValueKind, value: String) -> String? {
        switch kind {
        case .emailAddresses: TextFolding.emailKey(value)
        case .phoneNumbers: TextFolding.phoneKey(value)
        // A kept vCard UID is looked up on re-import: a card whose UID is no Carnet identifier still finds its contact.
        case .vCardProperties: KeptVCardLine.uidSearchKey(value)
        default: nil
        }
    }
}

extension Contact {
    /// The values of one multi-value property, encoded.
    package func encodedValues(_ kind: MultiValueKind) -> [EncodedLabeledValue] {
        func map<V>(_ list: [LabeledValue<V>], _ encode: (V) -> String) -> [EncodedLabeledValue] {
            list.map { EncodedLabeledValue(identifier: $0.identifier, label: $0.label, value: encode($0.value)) }
        }
        switch kind {
        case .phoneNumbers: return map(values.phoneNumbers) { $0 }
        case .emailAddresses: return map(values.emailAddresses) { $0 }
        case .urlAddresses: return map(values.urlAddresses) { $0 }
        case .postalAddresses: return map(values.postalAddresses) { EncodedLabeledValue.join($0.fields) }
        case .dates: return map(values.dates) { $0.storageString }
        case .contactRelations: return map(values.contactRelations) { $0.name }
        case .socialProfiles: return map(values.socialProfiles) { EncodedLabeledValue.join($0.fields) }
        case .instantMessageAddresses:
            return map(values.instantMessageAddresses) { EncodedLabeledValue.join($0.fields) }
        case .vCardProperties: return map(values.vCardProperties) { $0 }
        }
    }

    /// The label and identifier of each value of one multi-value property, its values left as they are.
    package func labelsAndIdentifiers(_ kind: MultiValueKind) -> [(label: String?, identifier: String?)] {
        func map<V>(_ list: [LabeledValue<V>]) -> [(label: String?, identifier: String?)] {
            list.map { ($0.label, $0.identifier) }
        }
        switch kind {
        case .phoneNumbers: return map(values.phoneNumbers)
        case .emailAddresses: return map(values.emailAddresses)
        case .urlAddresses: return map(values.urlAddresses)
        case .postalAddresses: return map(values.postalAddresses)
        case .dates: return map(values.dates)
        case .contactRelations: return map(values.contactRelations)
        case .socialProfiles: return map(values.socialProfiles)
        case .instantMessageAddresses: return map(values.instantMessageAddresses)
        case .vCardProperties: return map(values.vCardProperties)
        }
    }

    /// Stores decoded values without marking the key modified (used when reading from the database).
    package mutating func setEncodedValues(_ kind: MultiValueKind, _ encoded: [EncodedLabeledValue]) {
        func map<V>(_ decode: (String) -> V?) -> [LabeledValue<V>] {
            encoded.compactMap { item in
                decode(item.value).map { LabeledValue(identifier: item.identifier, label: item.label, value: $0) }
            }
        }
        switch kind {
        case .phoneNumbers: values.phoneNumbers = map { $0 }
        case .emailAddresses: values.emailAddresses = map { $0 }
        case .urlAddresses: values.urlAddresses = map { $0 }
        case .postalAddresses:
            values.postalAddresses = map { PostalAddress(fields: EncodedLabeledValue.split($0, count: 8)) }
        case .dates: values.dates = map { ContactDate(storageString: $0) }
        case .contactRelations: values.contactRelations = map { ContactRelation(name: $0) }
        case .socialProfiles:
            values.socialProfiles = map { SocialProfile(fields: EncodedLabeledValue.split($0, count: 4)) }
        case .instantMessageAddresses:
            values.instantMessageAddresses = map {
                InstantMessageAddress(fields: EncodedLabeledValue.split($0, count: 2))
            }
        case .vCardProperties: values.vCardProperties = map { $0 }
        }
        availableKeys.insert(kind.key)
    }

    /// Decodes one stored value and appends it to its property (reading a page appends row by row).
    package mutating func appendEncoded(_ kind: MultiValueKind, identifier: String?, label: String?, value: String) {
        switch kind {
        case .phoneNumbers: values.phoneNumbers.append(LabeledValue(identifier: identifier, label: label, value: value))
        case .emailAddresses:
            values.emailAddresses.append(LabeledValue(identifier: identifier, label: label, value: value))
        case .urlAddresses: values.urlAddresses.append(LabeledValue(identifier: identifier, label: label, value: value))
        case .postalAddresses:
            values.postalAddresses.append(
                LabeledValue(
                    identifier: identifier, label: label,
                    value: PostalAddress(fields: EncodedLabeledValue.split(value, count: 8))))
        case .dates:
            if let date = ContactDate(storageString: value) {
                values.dates.append(LabeledValue(identifier: identifier, label: label, value: date))
            }
        case .contactRelations:
            values.contactRelations.append(
                LabeledValue(identifier: identifier, label: label, value: ContactRelation(name: value)))
        case .socialProfiles:
            values.socialProfiles.append(
                LabeledValue(
                    identifier: identifier, label: label,
                    value: SocialProfile(fields: EncodedLabeledValue.split(value, count: 4))))
        case .instantMessageAddresses:
            values.instantMessageAddresses.append(
                LabeledValue(
                    identifier: identifier, label: label,
                    value: InstantMessageAddress(fields: EncodedLabeledValue.split(value, count: 2))))
        case .vCardProperties:
            values.vCardProperties.append(LabeledValue(identifier: identifier, label: label, value: value))
        }
    }

    /// The value of a string key, whether or not it is available (callers check).
    package func storedString(_ key: ContactKey) -> String { key.stringSlot.map { values.strings[$0] } ?? "" }

    package mutating func setStoredString(_ key: ContactKey, _ value: String) {
        guard let slot = key.stringSlot else { return }
        values.strings[slot] = value
        availableKeys.insert(key)
    }
}
