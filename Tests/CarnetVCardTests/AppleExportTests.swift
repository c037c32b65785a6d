import CarnetStore
import Foundation
import Testing

@testable import CarnetVCard

@Suite("Apple Contacts exports")
struct AppleExportTests {
    @Test func macOSCardMapsEveryProperty() throws {
        let card = try readOne(Corpus.crlf(Corpus.appleContacts))
        let c = card.contact
        #expect(card.version == "3.0")
        #expect(card.line == 1)
        #expect(card.uid == "5AD380FD-B2DE-4261-BA99-DE1D1DB52FBE")
        #expect(c.identifier == "5AD380FD-B2DE-4261-BA99-DE1D1DB52FBE")
        #expect(c.contactType == .person)
        #expect(c.namePrefix == "Dr.")
        #expect(c.givenName == "John")
        #expect(c.middleName == "Quincy")
        #expect(c.familyName == "Appleseed")
        #expect(c.nameSuffix == "Jr.")
        #expect(c.nickname == "Johnny")
        #expect(c.previousFamilyName == "Smith")
        #expect(c.phoneticGivenName == "Jon")
        #expect(c.phoneticMiddleName == "Quin")
        #expect(c.phoneticFamilyName == "Apple-seed")
        #expect(c.organizationName == "Apple Inc.")
        #expect(c.departmentName == "Engineering")
        #expect(c.jobTitle == "Senior Engineer")
        #expect(c.note == "Met at WWDC, 2019.\nLikes hiking; and coffee.")
        #expect(c.birthday == ContactDate(month: 3, day: 14))
        #expect(c.nonGregorianBirthday == nil)

        #expect(c.emailAddresses.map(\.label) == [ContactLabel.home, ContactLabel.work, ContactLabel.emailiCloud])
        #expect(
            c.emailAddresses.map(\.value) == ["john@example.com", "jappleseed@apple.example", "john@icloud.example"])
        // The empty TEL is dropped, not kept as an empty number.
        #expect(
            c.phoneNumbers.map(\.label) == [
                ContactLabel.phoneiPhone, ContactLabel.home, ContactLabel.phoneWorkFax, "Lake house",
            ])
        #expect(
            c.phoneNumbers.map(\.value) == [
                "+1 (408) 555-0101", "+1 (408) 555-0102", "+1 (408) 555-0103", "+1 (408) 555-0104",
            ])
        #expect(
            c.postalAddresses == [
                LabeledValue(
                    label: ContactLabel.home,
                    value: PostalAddress(
                        street: "1 Infinite Loop\nBuilding 2", city: "Cupertino", state: "CA", postalCode: "95014",
                        country: "United States", isoCountryCode: "us"))
            ])
        #expect(c.urlAddresses == [LabeledValue(label: ContactLabel.urlHomePage, value: "https://www.apple.example")])
        #expect(
            c.dates == [
                LabeledValue(label: ContactLabel.dateAnniversary, value: ContactDate(year: 2004, month: 6, day: 12))
            ])
        #expect(
            c.contactRelations == [
                LabeledValue(label: ContactLabel.spouse, value: ContactRelation(name: "Jane Appleseed"))
            ])
        #expect(
            c.socialProfiles == [
                LabeledValue(
                    value: SocialProfile(
                        urlString: "https://twitter.com/jappleseed", username: "jappleseed", service: "Twitter"))
            ])
        #expect(
            c.instantMessageAddresses == [
                LabeledValue(
                    label: ContactLabel.home, value: InstantMessageAddress(username: "john.appleseed", service: "Skype")
                )
            ])
        let photo = try #require(c.imageData)
        #expect(photo.count == 142)
        #expect(photo.starts(with: [0xFF, 0xD8, 0xFF, 0xE0]))
        #expect(card.categories == ["Friends", "Work"])
        #expect(card.unmappedProperties == ["X-ABUID:5AD380FD-B2DE-4261-BA99-DE1D1DB52FBE:ABPerson"])
    }

    @Test func companyCard() throws {
        let card = try readOne(Corpus.appleCompany)
        let c = card.contact
        #expect(c.contactType == .organization)
        #expect(c.organizationName == "Blue Bottle Coffee")
        #expect(c.departmentName == "")
        #expect(c.givenName == "")
        #expect(c.phoneticOrganizationName == "Blue Bottle")
        #expect(
            c.phoneNumbers.map(\.label) == [
                ContactLabel.phoneMain, ContactLabel.phonePager, ContactLabel.phoneOtherFax,
            ])
        #expect(c.emailAddresses == [LabeledValue(label: ContactLabel.other, value: "hello@bluebottle.example")])
        #expect(c.urlAddresses == [LabeledValue(label: ContactLabel.work, value: "https://bluebottle.example")])
        #expect(card.uid == nil)
        #expect(card.unmappedProperties.isEmpty)
    }

    @Test func iPhoneCardWithRelatedNamesAndAlternateBirthday() throws {
        let card = try readOne(Corpus.iPhone)
        let c = card.contact
        #expect(c.givenName == "Linh")
        #expect(c.familyName == "Nguyễn")
        #expect(
            c.contactRelations == [
                LabeledValue(label: ContactLabel.father, value: ContactRelation(name: "Minh Nguyễn")),
                LabeledValue(label: ContactLabel.mother, value: ContactRelation(name: "Hoa Trần")),
                LabeledValue(label: "godson", value: ContactRelation(name: "Bảo")),
            ])
        #expect(c.birthday == ContactDate(year: 1985, month: 12, day: 12))
        #expect(c.nonGregorianBirthday == ContactDate(calendar: "chinese", era: 78, year: 2, month: 11, day: 1))
        // X-AIM repeats the AIM IMPP and is not added twice; X-ICQ has no IMPP twin.
        #expect(
            c.instantMessageAddresses == [
                LabeledValue(
                    label: ContactLabel.home, value: InstantMessageAddress(username: "linh.aim", service: "AIM")),
                LabeledValue(
                    label: ContactLabel.work,
                    value: InstantMessageAddress(
                        username: "linh@jabber.example.org", service: "Jabber")),
                LabeledValue(value: InstantMessageAddress(username: "linh_wx", service: "WeChat")),
                LabeledValue(value: InstantMessageAddress(username: "123456789", service: "ICQ")),
            ])
        #expect(
            c.socialProfiles == [
                LabeledValue(
                    value: SocialProfile(
                        urlString: "http://www.linkedin.com/in/linhnguyen", username: "linhnguyen", service: "LinkedIn")
                ),
                LabeledValue(
                    label: "Personal",
                    value: SocialProfile(
                        username: "linh.nguyen", userIdentifier: "100001", service: "Facebook")),
            ])
        #expect(
            c.postalAddresses == [
                LabeledValue(
                    label: ContactLabel.work,
                    value: PostalAddress(
                        street: "12 Lê Lợi", subLocality: "Quận 1", city: "Hồ Chí Minh",
                        subAdministrativeArea: "Bến Nghé",
                        postalCode: "700000", country: "Việt Nam", isoCountryCode: "vn"))
            ])
        #expect(card.unmappedProperties.isEmpty)
    }
}
