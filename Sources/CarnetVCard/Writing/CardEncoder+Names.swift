import CarnetStore

extension CardEncoder {
    /// N (always, as 3.0 requires), FN (always; composed like Apple's display name), and the other name keys.
    mutating func encodeNames() {
        let prefix = string(.namePrefix)
        let given = string(.givenName)
        let middle = string(.middleName)
        let family = string(.familyName)
        let suffix = string(.nameSuffix)
        let names = [family, given, middle, prefix, suffix]
        if let form = takeFullerForm(.name, base: names) {
            out.property("N", parameters: form.writtenParameters, value: Escaping.components(names + form.components))
        } else {
            out.property("N", value: Escaping.components(names))
        }
        out.property("FN", value: Escaping.text(formattedName(names: [prefix, given, middle, family, suffix])))
        let nickname = string(.nickname)
        if !nickname.isEmpty { out.property("NICKNAME", value: Escaping.text(nickname)) }
        let others: [(ContactKey, String)] = [
            (.previousFamilyName, "X-MAIDENNAME"), (.phoneticGivenName, "X-PHONETIC-FIRST-NAME"),
            (.phoneticMiddleName, "X-PHONETIC-MIDDLE-NAME"), (.phoneticFamilyName, "X-PHONETIC-LAST-NAME"),
        ]
        for (key, name) in others {
            let text = string(key)
            if !text.isEmpty { out.property(name, value: Escaping.text(text)) }
        }
    }

    /// The name parts with a space between; for an organization, or a person with no name, the organization
    /// name; then the nickname. Empty when the contact has none of these (FN must still be present).
    private func formattedName(names: [String]) -> String {
        let organization = string(.organizationName)
        let isOrganization = value(.contactType, \.contactType, .person) == .organization
        if isOrganization, !organization.isEmpty { return organization }
        let joined = names.filter { !$0.isEmpty }.joined(separator: " ")
        if !joined.isEmpty { return joined }
        if !organization.isEmpty { return organization }
        return string(.nickname)
    }

    /// ORG (organization; department), X-PHONETIC-ORG, TITLE, and Apple's X-ABShowAs:COMPANY in 3.0.
    mutating func encodeOrganization() {
        let organization = string(.organizationName)
        let department = string(.departmentName)
        if !organization.isEmpty || !department.isEmpty {
            let parts = department.isEmpty ? [organization] : [organization, department]
            out.property("ORG", value: Escaping.components(parts))
        }
        let phonetic = string(.phoneticOrganizationName)
        if !phonetic.isEmpty { out.property("X-PHONETIC-ORG", value: Escaping.text(phonetic)) }
        let title = string(.jobTitle)
        if !title.isEmpty { out.property("TITLE", value: Escaping.text(title)) }
        if version == .v30, value(.contactType, \.contactType, .person) == .organization {
            out.property("X-ABShowAs", value: "COMPANY")
        }
    }
}
