import CarnetStore

/// One generated contact, in plain values: imported through the store API, and written by hand by the raw
/// SQL save that serves as the floor.
struct Person: Sendable {
    /// `nil`: the store makes one when the contact is added (its default, time-ordered).
    var identifier: String?
    var isOrganization = false
    var givenName = ""
    var middleName = ""
    var familyName = ""
    var nickname = ""
    var organizationName = ""
    var jobTitle = ""
    var birthday: ContactDate?
    var phones: [Labeled<String>] = []
    var emails: [Labeled<String>] = []
    var addresses: [Labeled<PostalAddress>] = []

    struct Labeled<Value: Sendable>: Sendable {
        var label: String
        var value: Value
    }

    /// The contact to add with a save request.
    var contact: Contact {
        var contact = Contact(identifier: identifier, contactType: isOrganization ? .organization : .person)
        if !givenName.isEmpty { contact.givenName = givenName }
        if !middleName.isEmpty { contact.middleName = middleName }
        if !familyName.isEmpty { contact.familyName = familyName }
        if !nickname.isEmpty { contact.nickname = nickname }
        if !organizationName.isEmpty { contact.organizationName = organizationName }
        if !jobTitle.isEmpty { contact.jobTitle = jobTitle }
        if let birthday { contact.birthday = birthday }
        contact.phoneNumbers = phones.map { LabeledValue(label: $0.label, value: $0.value) }
        contact.emailAddresses = emails.map { LabeledValue(label: $0.label, value: $0.value) }
        contact.postalAddresses = addresses.map { LabeledValue(label: $0.label, value: $0.value) }
        return contact
    }
}
