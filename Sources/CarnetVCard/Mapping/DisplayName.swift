import CarnetStore

/// The name a card is shown by, composed as the writer composes FN: the name parts, else the organization,
/// else the nickname. What a relation resolved from a RELATED UID is named.
enum DisplayName {
    static func of(_ contact: Contact) -> String {
        func string(_ key: ContactKey) -> String { contact.isKeyAvailable(key) ? contact.string(key) : "" }
        let organization = string(.organizationName)
        if contact.isKeyAvailable(.contactType), contact.contactType == .organization, !organization.isEmpty {
            return organization
        }
        let keys: [ContactKey] = [.namePrefix, .givenName, .middleName, .familyName, .nameSuffix]
        let joined = keys.map(string).filter { !$0.isEmpty }.joined(separator: " ")
        if !joined.isEmpty { return joined }
        return organization.isEmpty ? string(.nickname) : organization
    }
}
