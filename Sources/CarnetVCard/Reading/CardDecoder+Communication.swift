import CarnetStore

/// TEL, EMAIL, ADR and URL.
extension CardDecoder {
    /// An empty number is dropped (with its label) rather than kept as a value the store would refuse.
    mutating func mapPhone(_ line: ContentLine) throws(VCardIssue) -> Bool {
        let number = FullerForm.mappedValue(.telephone, try values.text(line))
        let label = label(for: line, kind: .phone)
        if !number.isEmpty {
            phoneNumbers.append(LabeledValue(label: label, value: number))
            source(.phoneNumbers)
            notePreference(.phoneNumbers, line)
            keepFullerForm(line, value: number)
        }
        return true
    }

    mutating func mapEmail(_ line: ContentLine) throws(VCardIssue) -> Bool {
        let address = FullerForm.mappedValue(.email, try values.text(line))
        let label = label(for: line, kind: .email)
        if !address.isEmpty {
            emailAddresses.append(LabeledValue(label: label, value: address))
            source(.emailAddresses)
            notePreference(.emailAddresses, line)
            keepFullerForm(line, value: address)
        }
        return true
    }

    mutating func mapURL(_ line: ContentLine) throws(VCardIssue) -> Bool {
        let url = FullerForm.mappedValue(.url, try values.uri(line))
        let label = label(for: line, kind: .url)
        if !url.isEmpty {
            urlAddresses.append(LabeledValue(label: label, value: url))
            source(.urlAddresses)
            notePreference(.urlAddresses, line)
            keepFullerForm(line, value: url)
        }
        return true
    }

    /// ADR: post office box; extended address; street; locality; region; postal code; country. Carnet has one
    /// street field, so the first three join as its lines. The ISO country code, sub-locality and
    /// sub-administrative area come from the group's X-ABADR, X-APPLE-SUBLOCALITY and
    /// X-APPLE-SUBADMINISTRATIVEAREA, as Apple writes them, or from parameters of those names and CC (RFC 9554).
    mutating func mapAddress(_ line: ContentLine) throws(VCardIssue) -> Bool {
        let parts = try values.components(line)
        var address = FullerForm.address(parts)
        if let code = line.parameter("CC") { address.isoCountryCode = TextCleaning.singleLine(code) }
        if let area = line.parameter("X-APPLE-SUBLOCALITY") { address.subLocality = TextCleaning.singleLine(area) }
        if let area = line.parameter("X-APPLE-SUBADMINISTRATIVEAREA") {
            address.subAdministrativeArea = TextCleaning.singleLine(area)
        }
        if let group = line.group {
            // Read once per group, however many addresses share it: per address, N addresses and N helpers in one
            // group were N² decodes (4,000 of each: 29 s).
            if addressHelpers[group] == nil { addressHelpers[group] = try readAddressHelpers(of: group) }
            if let fields = addressHelpers[group], !fields.isEmpty {
                for (field, value) in fields { address[keyPath: field] = value }
                usedAddressGroups.insert(group)
            }
        }
        let label = label(for: line, kind: .address)
        guard address != PostalAddress() else {
            // Nothing to map: a line of RFC 9554 components alone is kept as it is.
            return FullerForm(line, components: parts) == nil
        }
        postalAddresses.append(LabeledValue(label: label, value: address))
        source(.postalAddresses)
        notePreference(.postalAddresses, line)
        keepFullerForm(line, parts)
        return true
    }

    /// The address fields the group's Apple helper lines give (country code, sub-locality, sub-administrative
    /// area), in line order: a later line for a field wins.
    private func readAddressHelpers(of group: String) throws(VCardIssue) -> [(
        WritableKeyPath<PostalAddress, String>, String
    )] {
        var fields: [(WritableKeyPath<PostalAddress, String>, String)] = []
        for index in helpersByGroup[group] ?? [] {
            let field: WritableKeyPath<PostalAddress, String>
            switch lines[index].property {
            case .appleAddressCountry: field = \.isoCountryCode
            case .appleSubLocality: field = \.subLocality
            case .appleSubAdministrativeArea: field = \.subAdministrativeArea
            default: continue
            }
            fields.append((field, TextCleaning.singleLine(try values.text(lines[index]))))
        }
        return fields
    }

    /// Whether the text starts with the (lowercase) URI scheme, in any case.
    static func hasScheme(_ text: String, _ scheme: String) -> Bool {
        text.utf8.count >= scheme.utf8.count
            && zip(text.utf8, scheme.utf8).allSatisfy { Byte.lowercased($0) == $1 }
    }
}
