import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

@Suite("Validation")
struct ValidationTests {
    @Test("Every bad property is named by its key path", arguments: StoreKind.available)
    func keyPaths(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        var contact = Make.person(String(repeating: "x", count: StoreLimits.singleLineBytes + 1), "Smith")
        contact.birthday = ContactDate(year: 2023, month: 2, day: 29)
        contact.dates = [LabeledValue(label: nil, value: ContactDate(month: 13, day: 1))]
        contact.emailAddresses = [
            LabeledValue(label: nil, value: "ok@example.com"), LabeledValue(label: nil, value: "  "),
        ]
        contact.phoneNumbers = [LabeledValue(label: nil, value: "")]
        // An address of blank fields is no value either (it was stored, a label alone no vCard could carry).
        contact.postalAddresses = [
            LabeledValue(label: "home", value: PostalAddress(city: "Lyon")),
            LabeledValue(label: "custom", value: PostalAddress(street: " ", city: "")),
        ]
        // Kept vCard lines: one line each, none that frames a card (its export left them out, so a re-import of
        // the export changed the contact).
        contact.vCardProperties = [
            "X-OK:1", "X-A:1\r\nX-B:2", "END:VCARD", "begin;x=1:VCARD", "X-C:3\n", "item1.X-D:\t4",
        ]
        .map { LabeledValue(label: nil, value: $0) }
        contact.imageData = Data(count: StoreLimits.imageDataBytes + 1)
        contact.familyName = "Bad\u{0}Name"
        var request = SaveRequest()
        request.add(Make.person("Fine", "Person"))
        request.add(contact)
        let error = await #expect(throws: StoreError.self) { try await store.execute(request) }
        #expect(error?.code == .validationFailed)
        #expect(error?.operationIndex == 1)
        #expect(error?.affectedRecordIdentifiers == [contact.identifier])
        #expect(
            Set(error?.keyPaths ?? []) == [
                "givenName", "familyName", "birthday.day", "dates[0].value.month", "emailAddresses[1].value",
                "phoneNumbers[0].value", "postalAddresses[1].value", "imageData", "vCardProperties[1].value",
                "vCardProperties[2].value", "vCardProperties[3].value", "vCardProperties[4].value",
            ])
        #expect(try await store.contactCount() == 0)
    }

    @Test("Dates: a real day, February 29th needs a leap year or no year")
    func dates() {
        #expect(ContactDate(month: 2, day: 29).invalidComponents().isEmpty)
        #expect(ContactDate(year: 2024, month: 2, day: 29).invalidComponents().isEmpty)
        #expect(ContactDate(year: 1900, month: 2, day: 29).invalidComponents() == ["day"])
        #expect(ContactDate(month: 4, day: 31).invalidComponents() == ["day"])
        #expect(ContactDate(month: 0, day: 1).invalidComponents() == ["month"])
        #expect(ContactDate(calendar: "hebrew", month: 13, day: 30).invalidComponents().isEmpty)
        #expect(ContactDate(calendar: "klingon", month: 1, day: 1).invalidComponents() == ["calendar"])
    }

    /// An outside tester's find: a Gregorian date in era 0 (BC) was kept, and exported as the same year AD; eras 7
    /// and Int.min were kept too, and 29 February 2000 BC passed the AD leap-year check.
    @Test("Dates: a Gregorian date is in era 1 or names none; other calendars number eras from 0")
    func eras() {
        #expect(ContactDate(era: 1, year: 2000, month: 2, day: 29).invalidComponents().isEmpty)
        #expect(ContactDate(era: 0, year: 44, month: 3, day: 15).invalidComponents() == ["era"])
        #expect(ContactDate(era: 7, month: 3, day: 15).invalidComponents() == ["era"])
        #expect(ContactDate(era: Int(Int32.min), month: 3, day: 15).invalidComponents() == ["era"])
        #expect(ContactDate(calendar: "iso8601", era: 0, month: 3, day: 15).invalidComponents() == ["era"])
        #expect(ContactDate(calendar: "japanese", era: 236, year: 7, month: 3, day: 15).invalidComponents().isEmpty)
        #expect(ContactDate(calendar: "chinese", era: 78, year: 2, month: 11, day: 1).invalidComponents().isEmpty)
        #expect(ContactDate(calendar: "chinese", era: -1, year: 2, month: 11, day: 1).invalidComponents() == ["era"])
    }

    @Test("Labels, notes and authors have limits; control characters are refused", arguments: StoreKind.available)
    func limits(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        var contact = Make.person("Anna", "Smith")
        contact.note = String(repeating: "n", count: StoreLimits.noteBytes)
        contact.emailAddresses = [
            LabeledValue(label: String(repeating: "l", count: StoreLimits.labelBytes + 1), value: "a@b.c")
        ]
        let error = await #expect(throws: StoreError.self) { try await store.add([contact]) }
        #expect(error?.keyPaths == ["emailAddresses[0].label"])
        contact.emailAddresses = []
        try await store.add([contact])
        var tooMany = Make.person("Bob", "Jones")
        tooMany.phoneNumbers = (0...StoreLimits.valuesPerProperty).map { LabeledValue(label: nil, value: "\($0)") }
        let countError = await #expect(throws: StoreError.self) { try await store.add([tooMany]) }
        #expect(countError?.keyPaths == ["phoneNumbers"])
        let authorError = await #expect(throws: StoreError.self) {
            try await store.add([Make.person("C", "D")], author: "bad\nauthor")
        }
        #expect(authorError?.keyPaths == ["transactionAuthor"])
    }
}

@Suite("Keys")
struct KeyTests {
    @Test("Ordinals and string slots follow the declared orders; key sets hold exactly what is inserted")
    func ordinals() {
        for (index, key) in ContactKey.allCases.enumerated() { #expect(key.ordinal == index) }
        for (index, key) in ContactKey.stringKeys.enumerated() { #expect(key.stringSlot == index) }
        #expect(ContactKey.allCases.filter { $0.stringSlot != nil } == ContactKey.stringKeys)
        var set: ContactKeySet = [.givenName, .emailAddresses]
        set.insert(.note)
        set.remove(.givenName)
        #expect(set.keys == [.note, .emailAddresses])
        #expect(ContactKeySet.all.count == ContactKey.allCases.count)
    }
}
