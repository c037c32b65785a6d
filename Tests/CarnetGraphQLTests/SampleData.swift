import CarnetStore
import Foundation

/// A small store with every kind of value, for execution and differential tests.
enum SampleData {
    struct Seeded {
        var contacts: [String] = []
        var groups: [String] = []
        var containers: [String] = []
    }

    @discardableResult
    static func seed(_ store: any ContactStore) async throws -> Seeded {
        var seeded = Seeded()
        let work = try await store.addContainer(Container(name: "Work", type: .exchange))
        seeded.containers = [try await store.defaultContainer().identifier, work.identifier]
        var request = SaveRequest(transactionAuthor: "seed")
        let names: [(String, String, String)] = [
            ("José", "Núñez", ""), ("Anna", "Smith", "Acme"), ("Annabel", "Smithson", ""),
            ("Zoë", "Ångström", "Ørsted"),
            ("", "", "Globex Corporation"), ("Bob", "Smith", ""), ("Łukasz", "Kowalski", ""),
            ("Mei", "Chen", "Initech"),
        ]
        for (index, (given, family, organization)) in names.enumerated() {
            var contact = Contact(contactType: given.isEmpty ? .organization : .person)
            contact.givenName = given
            contact.familyName = family
            contact.organizationName = organization
            contact.middleName = index % 3 == 0 ? "M" : ""
            contact.namePrefix = index == 1 ? "Dr." : ""
            contact.nameSuffix = index == 2 ? "Jr." : ""
            contact.nickname = index == 4 ? "Globby" : ""
            contact.jobTitle = index % 2 == 0 ? "Engineer" : ""
            contact.note = index == 0 ? "Line one\nLine \"two\"" : ""
            contact.phoneticGivenName = index == 7 ? "May" : ""
            contact.birthday =
                index % 2 == 0
                ? ContactDate(year: index == 0 ? nil : 1980 + index, month: 1 + index, day: 10 + index) : nil
            contact.nonGregorianBirthday =
                index == 3 ? ContactDate(calendar: "hebrew", year: 5745, month: 7, day: 12) : nil
            contact.phoneNumbers = (0..<(index % 3 + 1)).map {
                LabeledValue(
                    label: [ContactLabel.phoneMobile, ContactLabel.work, "Boat"][$0],
                    value: "+1 555 010 \(1000 + index * 10 + $0)")
            }
            contact.emailAddresses = (0..<(index % 2 + 1)).map {
                LabeledValue(label: $0 == 0 ? ContactLabel.home : nil, value: "person\(index).\($0)@example.com")
            }
            if index % 3 == 1 {
                contact.postalAddresses = [
                    LabeledValue(
                        label: ContactLabel.work,
                        value: PostalAddress(
                            street: "\(index) Main Street\nSuite 5", city: "Springfield", state: "IL",
                            postalCode: "6270\(index)",
                            country: "United States", isoCountryCode: "us"))
                ]
            }
            contact.urlAddresses =
                index == 5 ? [LabeledValue(label: ContactLabel.urlHomePage, value: "https://bob.example")] : []
            contact.dates =
                index == 1
                ? [LabeledValue(label: ContactLabel.dateAnniversary, value: ContactDate(year: 2010, month: 6, day: 1))]
                : []
            contact.contactRelations =
                index == 1 ? [LabeledValue(label: ContactLabel.spouse, value: ContactRelation(name: "Bob"))] : []
            contact.socialProfiles =
                index == 6
                ? [
                    LabeledValue(
                        label: nil,
                        value: SocialProfile(
                            urlString: "https://social.example/@lk", username: "lk", userIdentifier: "42",
                            service: "Mastodon"))
                ] : []
            contact.instantMessageAddresses =
                index == 7
                ? [
                    LabeledValue(
                        label: ContactLabel.work,
                        value: InstantMessageAddress(
                            username: "mei", service: "Jabber"))
                ] : []
            contact.vCardProperties =
                index == 3 ? [LabeledValue(value: "X-CUSTOM;TYPE=a:b"), LabeledValue(value: "UID:urn:x:1")] : []
            contact.imageData = index == 2 ? Data([0, 1, 2, 3, 254, 255]) : nil
            contact.thumbnailImageData = index == 2 ? Data([9, 8]) : nil
            request.add(contact, toContainerWithIdentifier: index == 7 ? work.identifier : nil)
            seeded.contacts.append(contact.identifier)
        }
        let friends = Group(name: "Friends")
        let family = Group(name: "Family")
        let team = Group(name: "Team")
        request.add(friends)
        request.add(family)
        request.add(team, toContainerWithIdentifier: work.identifier)
        seeded.groups = [friends.identifier, family.identifier, team.identifier]
        for index in [0, 1, 2, 5] { request.addMember(seeded.contacts[index], toGroup: friends.identifier) }
        for index in [1, 3] { request.addMember(seeded.contacts[index], toGroup: family.identifier) }
        request.addMember(seeded.contacts[7], toGroup: team.identifier)
        try await store.execute(request)
        var update = Contact(updating: seeded.contacts[1])
        update.jobTitle = "Director"
        var second = SaveRequest(transactionAuthor: "editor")
        second.update(update)
        second.delete(contactWithIdentifier: seeded.contacts[6])
        try await store.execute(second)
        seeded.contacts.remove(at: 6)
        return seeded
    }
}
