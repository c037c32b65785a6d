import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

/// Reads text that must hold exactly one good card.
func readOne(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> VCardCard {
    let (cards, issues) = try VCardReader().read(Data(text.utf8))
    #expect(issues.isEmpty, "\(issues)", sourceLocation: sourceLocation)
    return try #require(cards.first, sourceLocation: sourceLocation)
}

/// A value of every key (but the thumbnail), with custom and well-known labels, for round trips.
func fullContact(identifier: String = "carnet-test-1") -> Contact {
    var contact = Contact(identifier: identifier)
    contact.namePrefix = "Dr."
    contact.givenName = "Zoë"
    contact.middleName = "Anne"
    contact.familyName = "O'Brien; Smith"
    contact.nameSuffix = "PhD"
    contact.previousFamilyName = "Brown"
    contact.nickname = "Zo, Zozo"
    contact.phoneticGivenName = "Zo-ee"
    contact.phoneticMiddleName = "Ann"
    contact.phoneticFamilyName = "Oh-Bry-en"
    contact.phoneticOrganizationName = "Ak-me"
    contact.organizationName = "ACME, Inc."
    contact.departmentName = "R&D; Labs"
    contact.jobTitle = "Chief Tester"
    contact.note = "First line\nSecond line, with comma; semicolon \\ backslash\n\tTabbed"
    contact.birthday = ContactDate(month: 2, day: 29)
    contact.nonGregorianBirthday = ContactDate(
        calendar: "chinese", era: 78, year: 2, month: 11, day: 1, isLeapMonth: true)
    contact.imageData = Data([0xFF, 0xD8, 0xFF, 0xE0] + (0..<200).map { UInt8($0) })
    contact.phoneNumbers = [
        LabeledValue(label: ContactLabel.phoneiPhone, value: "+1 555 0100"),
        LabeledValue(label: ContactLabel.phoneMobile, value: "+1 555 0101"),
        LabeledValue(label: ContactLabel.phoneHomeFax, value: "+1 555 0102"),
        LabeledValue(label: ContactLabel.phoneWorkFax, value: "+1 555 0103"),
        LabeledValue(label: ContactLabel.phoneOtherFax, value: "+1 555 0104"),
        LabeledValue(label: ContactLabel.phonePager, value: "+1 555 0105"),
        LabeledValue(label: ContactLabel.phoneMain, value: "+1 555 0106"),
        LabeledValue(label: ContactLabel.phoneAppleWatch, value: "+1 555 0107"),
        LabeledValue(label: "Boat; cabin", value: "+1 555 0108"),
        LabeledValue(label: nil, value: "+1 555 0109"),
    ]
    contact.emailAddresses = [
        LabeledValue(label: ContactLabel.home, value: "zoe@example.com"),
        LabeledValue(label: ContactLabel.emailiCloud, value: "zoe@icloud.example"),
        LabeledValue(label: ContactLabel.school, value: "zoe@school.example"),
    ]
    contact.postalAddresses = [
        LabeledValue(
            label: ContactLabel.work,
            value: PostalAddress(
                street: "1 Main St\nSuite 2", subLocality: "Old Town", city: "Springfield",
                subAdministrativeArea: "Sangamon",
                state: "IL", postalCode: "62701", country: "USA", isoCountryCode: "us")),
        LabeledValue(label: "Summer", value: PostalAddress(street: "Chemin des Vignes 3", city: "Lausanne")),
    ]
    contact.urlAddresses = [
        LabeledValue(label: ContactLabel.urlHomePage, value: "https://zoe.example/a,b;c"),
        LabeledValue(label: ContactLabel.other, value: "https://other.example"),
    ]
    contact.dates = [
        LabeledValue(label: ContactLabel.dateAnniversary, value: ContactDate(year: 2010, month: 6, day: 12)),
        LabeledValue(label: "First met", value: ContactDate(month: 1, day: 5)),
        LabeledValue(label: "Hebrew date", value: ContactDate(calendar: "hebrew", year: 5780, month: 13, day: 2)),
    ]
    contact.contactRelations = [
        LabeledValue(label: ContactLabel.spouse, value: ContactRelation(name: "Sam")),
        LabeledValue(label: ContactLabel.father, value: ContactRelation(name: "Liam O'Brien")),
        LabeledValue(label: "Godmother", value: ContactRelation(name: "Ada, Countess")),
    ]
    contact.socialProfiles = [
        LabeledValue(
            label: nil,
            value: SocialProfile(
                urlString: "https://twitter.com/zoe", username: "zoe", userIdentifier: "42", service: "Twitter")),
        LabeledValue(label: ContactLabel.work, value: SocialProfile(username: "zoe.w", service: "Mastodon; social")),
    ]
    contact.instantMessageAddresses = [
        LabeledValue(
            label: ContactLabel.home, value: InstantMessageAddress(username: "zoe@jabber.example", service: "Jabber")),
        LabeledValue(label: "Gaming", value: InstantMessageAddress(username: "zoe 42%", service: "Discord")),
        LabeledValue(label: nil, value: InstantMessageAddress(username: "zoe.icq", service: "ICQ")),
        LabeledValue(label: ContactLabel.work, value: InstantMessageAddress(username: "plain", service: "")),
    ]
    return contact
}

/// The contact's values, key by key, for comparing contacts whose identifiers and bookkeeping differ.
func values(of contact: Contact) -> [String] {
    var result: [String] = ["contactType=\(contact.contactType)"]
    for key in ContactKey.stringKeys { result.append("\(key.rawValue)=\(contact.string(key))") }
    result.append("birthday=\(String(describing: contact.birthday))")
    result.append("nonGregorianBirthday=\(String(describing: contact.nonGregorianBirthday))")
    result.append("imageData=\(String(describing: contact.imageData))")
    result.append("phoneNumbers=\(contact.phoneNumbers.map { "\($0.label ?? "-")|\($0.value)" })")
    result.append("emailAddresses=\(contact.emailAddresses.map { "\($0.label ?? "-")|\($0.value)" })")
    result.append("postalAddresses=\(contact.postalAddresses.map { "\($0.label ?? "-")|\($0.value)" })")
    result.append("urlAddresses=\(contact.urlAddresses.map { "\($0.label ?? "-")|\($0.value)" })")
    result.append("dates=\(contact.dates.map { "\($0.label ?? "-")|\($0.value)" })")
    result.append("contactRelations=\(contact.contactRelations.map { "\($0.label ?? "-")|\($0.value)" })")
    result.append("socialProfiles=\(contact.socialProfiles.map { "\($0.label ?? "-")|\($0.value)" })")
    result.append("instantMessageAddresses=\(contact.instantMessageAddresses.map { "\($0.label ?? "-")|\($0.value)" })")
    return result
}
