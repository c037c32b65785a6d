import Foundation

/// The checks a save runs before it writes: the limits in ``StoreLimits`` and well-formed values.
/// Each returns the key paths at fault, so one error can name every bad property.
package enum Validation {
    /// - Parameter update: lists are checked against what a unified contact may hold
    ///   (``unifiedValueLimit(_:)``): an update may name one, whose lists split among its members; each member's
    ///   list is checked against ``valueLimit(_:)`` when the store writes it (``LabeledValueMerge/overLimit``).
    package static func contact(_ contact: Contact, keys: ContactKeySet, update: Bool = false) -> [String] {
        var bad: [String] = []
        for key in keys {
            if let slot = key.stringSlot {
                let limit = key == .note ? StoreLimits.noteBytes : StoreLimits.singleLineBytes
                if !text(contact.values.strings[slot], limit: limit, multiline: key == .note) {
                    bad.append(key.rawValue)
                }
            } else if let kind = MultiValueKind(key: key) {
                bad += multiValue(contact, kind, limit: update ? unifiedValueLimit(kind) : valueLimit(kind))
            }
        }
        if keys.contains(.birthday), let date = contact.values.birthday {
            var problems = date.invalidComponents()
            if date.calendar != ContactDate.gregorian { problems.append("calendar") }
            bad += problems.map { "birthday.\($0)" }
        }
        if keys.contains(.nonGregorianBirthday), let date = contact.values.nonGregorianBirthday {
            var problems = date.invalidComponents()
            if date.calendar == ContactDate.gregorian { problems.append("calendar") }
            bad += problems.map { "nonGregorianBirthday.\($0)" }
        }
        if keys.contains(.imageData), (contact.values.imageData?.count ?? 0) > StoreLimits.imageDataBytes {
            bad.append("imageData")
        }
        if keys.contains(.thumbnailImageData),
            (contact.values.thumbnailImageData?.count ?? 0) > StoreLimits.thumbnailImageDataBytes
        {
            bad.append("thumbnailImageData")
        }
        return bad
    }

    /// The key paths of the values that carry an identifier (`phoneNumbers[0].identifier`). A new contact's
    /// values have none yet: an identifier there names a value the contact does not hold.
    package static func givenValueIdentifiers(_ contact: Contact) -> [String] {
        MultiValueKind.allCases.flatMap { kind in
            contact.labelsAndIdentifiers(kind).enumerated().compactMap { index, item in
                item.identifier == nil ? nil : "\(kind.key.rawValue)[\(index)].identifier"
            }
        }
    }

    /// How many values of a kind a contact may hold.
    package static func valueLimit(_ kind: MultiValueKind) -> Int {
        kind == .vCardProperties ? StoreLimits.vCardPropertiesPerContact : StoreLimits.valuesPerProperty
    }

    /// Refuses an update of one contact whose lists pass ``valueLimit(_:)``: shape validation lets lists up to
    /// ``unifiedValueLimit(_:)`` through (the update may name a unified contact), so a backend checks a contact's
    /// own update with this before it reads anything for the merge.
    package static func requireListsWithinLimit(_ update: Contact) throws {
        let over = MultiValueKind.allCases.filter {
            update.modifiedKeys.contains($0.key) && update.labelsAndIdentifiers($0).count > valueLimit($0)
        }
        guard !over.isEmpty else { return }
        throw StoreError(
            .validationFailed, "More values than a contact may hold", affected: [update.identifier],
            keyPaths: over.map(\.key.rawValue))
    }

    /// How many values of a kind a unified contact may show: its members' limits together.
    package static func unifiedValueLimit(_ kind: MultiValueKind) -> Int {
        valueLimit(kind) * StoreLimits.contactsPerUnifiedContact
    }

    package static func multiValue(_ contact: Contact, _ kind: MultiValueKind, limit: Int) -> [String] {
        let name = kind.key.rawValue
        // Labels and identifiers only: encoding every value (joining an address's fields) cost more than the checks.
        let items = contact.labelsAndIdentifiers(kind)
        guard items.count <= limit else { return [name] }
        var bad: [String] = []
        for (index, item) in items.enumerated() {
            let path = "\(name)[\(index)]"
            if let label = item.label, !text(label, limit: StoreLimits.labelBytes) { bad.append("\(path).label") }
            if let id = item.identifier, !Identifiers.isValid(id) { bad.append("\(path).identifier") }
            bad += valueProblems(contact, kind, index).map { "\(path).value\($0)" }
        }
        return bad
    }

    /// Problems with one value, as key path suffixes (`""` for the value itself, `".city"` for a field).
    private static func valueProblems(_ contact: Contact, _ kind: MultiValueKind, _ index: Int) -> [String] {
        let v = contact.values
        switch kind {
        case .phoneNumbers:
            return required(v.phoneNumbers[index].value, limit: StoreLimits.phoneBytes) ? [] : [""]
        case .emailAddresses:
            return required(v.emailAddresses[index].value, limit: StoreLimits.emailBytes) ? [] : [""]
        case .urlAddresses:
            return required(v.urlAddresses[index].value, limit: StoreLimits.urlBytes) ? [] : [""]
        case .contactRelations:
            return required(v.contactRelations[index].value.name, limit: StoreLimits.singleLineBytes) ? [] : [".name"]
        case .dates:
            return v.dates[index].value.invalidComponents().map { ".\($0)" }
        case .postalAddresses:
            let fields = v.postalAddresses[index].value.fields
            var bad = fieldProblems(fields, names: PostalAddress.fieldNames, multilineFirst: true)
            // An address of blank fields is no value, as an empty phone is none: accepted, it was a label alone,
            // which a vCard cannot carry (its export's empty ADR is dropped on import).
            if !fields.contains(where: isNotBlank) { bad.append("") }
            return bad
        case .socialProfiles:
            let profile = v.socialProfiles[index].value
            var bad = fieldProblems(profile.fields, names: SocialProfile.fieldNames)
            if profile.fields.allSatisfy(\.isEmpty) { bad.append("") }
            if profile.urlString.utf8.count > StoreLimits.urlBytes { bad.append(".urlString") }
            return bad
        case .vCardProperties:
            let line = v.vCardProperties[index].value
            return isVCardLine(line) ? [] : [""]
        case .instantMessageAddresses:
            let address = v.instantMessageAddresses[index].value
            var bad = fieldProblems(address.fields, names: InstantMessageAddress.fieldNames)
            if address.username.trimmingCharacters(in: .whitespaces).isEmpty { bad.append(".username") }
            return bad
        }
    }

    /// One unfolded vCard content line, as the importer keeps them: a name, parameters whose quotes close, a
    /// colon, no line break (tabs allowed), and none of the lines that frame a card (BEGIN, END, VERSION), which
    /// its export would leave out: stored, the contact differed from its own export, and a re-import of it changed
    /// the contact. A line that would not read back (an open quote) lost the whole card on re-import.
    private static func isVCardLine(_ line: String) -> Bool {
        guard text(line, limit: StoreLimits.vCardPropertyBytes, multiline: true),
            !line.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D })
        else { return false }
        return KeptVCardLine.isWellFormed(line) && !KeptVCardLine.framesCard(line)
    }

    private static func fieldProblems(_ fields: [String], names: [String], multilineFirst: Bool = false) -> [String] {
        zip(fields, names).enumerated().compactMap { index, pair in
            let limit = pair.1 == "urlString" ? StoreLimits.urlBytes : StoreLimits.singleLineBytes
            return text(pair.0, limit: limit, multiline: multilineFirst && index == 0) ? nil : ".\(pair.1)"
        }
    }

    package static func group(_ group: Group) -> [String] {
        required(group.name, limit: StoreLimits.singleLineBytes) ? [] : ["name"]
    }

    /// Within the limit and free of control characters (tab, CR and LF allowed where multiline):
    /// ``allows(_:multiline:)`` for each character, read as UTF-8 bytes.
    package static func text(_ value: String, limit: Int, multiline: Bool = false) -> Bool {
        guard value.utf8.count <= limit else { return false }
        var previous: (UInt8, UInt8) = (0, 0)
        // Combining marks start at U+0300 (lead byte 0xCC): text without such bytes has none.
        var mayCombine = false
        for byte in value.utf8 {
            guard allows(byte, multiline: multiline) else { return false }
            mayCombine = mayCombine || byte >= 0xCC
            // The C1 controls, U+0080–U+009F, are C2 80 to C2 9F.
            if previous.1 == 0xC2 && byte < 0xA0 { return false }
            // U+2028 and U+2029 break lines too: E2 80 A8 and E2 80 A9.
            if !multiline && previous == (0xE2, 0x80) && (byte == 0xA8 || byte == 0xA9) { return false }
            previous = (previous.1, byte)
        }
        return !(mayCombine && CombiningMarks.exceedsRun(value))
    }

    /// Whether the store holds this character: no control character (C0, DEL or C1), and tab, CR, LF and the
    /// Unicode line and paragraph separators only where multiline.
    package static func allows(_ scalar: Unicode.Scalar, multiline: Bool) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D, 0x2028, 0x2029: multiline
        case 0x00..<0x20, 0x7F...0x9F: false
        default: true
        }
    }

    /// The ASCII part of ``allows(_:multiline:)``, for a value's UTF-8 bytes: any byte at or above 0x20 but DEL (a
    /// multi-byte sequence's bytes too); tab, CR and LF only where multiline.
    package static func allows(_ byte: UInt8, multiline: Bool) -> Bool {
        if byte >= 0x20 { return byte != 0x7F }
        return multiline && (byte == 0x0A || byte == 0x0D || byte == 0x09)
    }

    /// Like ``text(_:limit:multiline:)``, and not blank.
    package static func required(_ value: String, limit: Int) -> Bool {
        text(value, limit: limit) && isNotBlank(value)
    }

    /// Whether `value` holds more than white space.
    package static func isNotBlank(_ value: String) -> Bool {
        value.unicodeScalars.contains { !$0.properties.isWhitespace }
    }
}

extension SaveRequest {
    /// What would make a save refuse this contact as an add: the key paths of its bad properties (empty when
    /// valid). Lets an import skip one bad card instead of failing its whole batch.
    ///
    /// - Parameter keys: The keys to check (all by default), for a caller that checked the others already.
    public static func validationProblems(ofNewContact contact: Contact, keys: ContactKeySet = .all) -> [String] {
        Validation.contact(contact, keys: keys).sorted()
    }
}
