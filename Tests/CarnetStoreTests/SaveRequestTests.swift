import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

@Suite("Save requests")
struct SaveRequestTests {
    @Test("Adding a contact stores every key", arguments: StoreKind.available)
    func addStoresEveryKey(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        var contact = Make.person("José", "Núñez", emails: ["jose@example.com"], phones: ["+1 555 555 1234"])
        contact.namePrefix = "Dr."
        contact.middleName = "María"
        contact.nickname = "Pepe"
        contact.note = "Line one\nLine two"
        contact.birthday = ContactDate(month: 2, day: 29)
        contact.nonGregorianBirthday = ContactDate(calendar: "hebrew", year: 5745, month: 7, day: 12)
        contact.postalAddresses = [
            LabeledValue(
                label: ContactLabel.work,
                value: PostalAddress(
                    street: "1 Infinite Loop\nBuilding 2", city: "Cupertino", state: "CA", postalCode: "95014",
                    country: "United States", isoCountryCode: "us"))
        ]
        contact.urlAddresses = [LabeledValue(label: ContactLabel.urlHomePage, value: "https://example.com")]
        contact.dates = [
            LabeledValue(label: ContactLabel.dateAnniversary, value: ContactDate(year: 2010, month: 6, day: 1))
        ]
        contact.contactRelations = [LabeledValue(label: ContactLabel.spouse, value: ContactRelation(name: "Ana"))]
        contact.socialProfiles = [LabeledValue(label: nil, value: SocialProfile(username: "jose", service: "Mastodon"))]
        contact.instantMessageAddresses = [
            LabeledValue(label: "Chat", value: InstantMessageAddress(username: "jn", service: "Jabber"))
        ]
        contact.imageData = Data(repeating: 7, count: 1000)
        let result = try await fixture.store.add([contact], author: "test")
        let fetched = try await fixture.store.contact(withIdentifier: contact.identifier, keysToFetch: .all)
        #expect(fetched.givenName == "José")
        #expect(fetched.middleName == "María")
        #expect(fetched.note == "Line one\nLine two")
        #expect(fetched.birthday == ContactDate(month: 2, day: 29))
        #expect(fetched.nonGregorianBirthday?.calendar == "hebrew")
        #expect(fetched.postalAddresses.first?.value.street == "1 Infinite Loop\nBuilding 2")
        #expect(fetched.postalAddresses.first?.value.isoCountryCode == "us")
        #expect(fetched.socialProfiles.first?.value.service == "Mastodon")
        #expect(fetched.instantMessageAddresses.first?.label == "Chat")
        #expect(fetched.contactRelations.first?.value.name == "Ana")
        #expect(fetched.dates.first?.value.year == 2010)
        #expect(fetched.imageData == Data(repeating: 7, count: 1000))
        #expect(fetched.imageDataAvailable)
        #expect(fetched.emailAddresses.first?.identifier != nil)
        #expect(fetched.revision == result.revision)
        #expect(fetched.containerIdentifier == (try await fixture.store.defaultContainer().identifier))
        #expect(fetched.createdAt != nil && fetched.createdAt == fetched.modifiedAt)
    }
}
