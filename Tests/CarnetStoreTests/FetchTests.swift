import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

@Suite("Fetching")
struct FetchTests {
    func seeded(_ kind: StoreKind, traced: Bool = false) async throws -> StoreFixture {
        let fixture = try await StoreFixture(kind, traced: traced)
        try await fixture.store.add(Make.searchSample())
        return fixture
    }

    func search(_ store: any ContactStore, _ predicate: ContactPredicate, order: ContactSortOrder = .familyName)
        async throws
        -> [String]
    {
        Make.names(
            try await store.contacts(
                ContactFetchRequest(
                    predicate: predicate, keysToFetch: [.givenName, .familyName], sortOrder: order)))
    }

    @Test(
        "Name search: every word prefix-matches a name word, ignoring case and diacritics",
        arguments: StoreKind.available)
    func nameSearch(kind: StoreKind) async throws {
        let store = try await seeded(kind).store
        #expect(try await search(store, .matchingName("jose")) == ["José Núñez"])
        #expect(try await search(store, .matchingName("NUNEZ")) == ["José Núñez"])
        #expect(try await search(store, .matchingName("ann sm")) == ["Anna Smith", "Annabel Smithson"])
        #expect(try await search(store, .matchingName("sm ann")) == ["Anna Smith", "Annabel Smithson"])
        #expect(try await search(store, .matchingName("zoe ang")) == ["Zoë Ångström"])
        try await store.add([Make.person("Łukasz", "Søren")])
        #expect(try await search(store, .matchingName("lukasz sor")) == ["Łukasz Søren"])
        #expect(try await search(store, .matchingName("acme")) == [""])
        #expect(try await search(store, .matchingName("nna")) == [])
        #expect(try await search(store, .matchingName("  ")) == [])
    }

    @Test("Email search is exact and case-insensitive; phone search ignores formatting", arguments: StoreKind.available)
    func emailAndPhone(kind: StoreKind) async throws {
        let store = try await seeded(kind).store
        #expect(try await search(store, .matchingEmailAddress("jose.nunez@example.COM")) == ["José Núñez"])
        #expect(try await search(store, .matchingEmailAddress("jose.nunez@example")) == [])
        for phone in ["(555) 555-1234", "+1 555 555 1234", "5555551234", "555.555.1234"] {
            #expect(try await search(store, .matchingPhoneNumber(phone)) == ["José Núñez"], "\(phone)")
        }
        #expect(try await search(store, .matchingPhoneNumber("020 7946 0958")) == ["Anna Smith"])
        #expect(try await search(store, .matchingPhoneNumber("555 1234")) == [])
    }

    @Test("Phone keys: the national significant number, whatever the form it was typed in")
    func phoneKeys() {
        let same: [[String]] = [
            ["(555) 555-1234", "+1 555 555 1234", "5555551234", "1-555-555-1234", "001 555 555 1234"],
            ["+44 20 7946 0958", "020 7946 0958", "0044 20 7946 0958"],
            ["+33 1 85 88 22 89", "01 85 88 22 89"],
            ["+49 30 950793", "030 950793"],
            ["+39 06 1234 5678", "06 1234 5678"],
        ]
        for group in same {
            let keys = Set(group.map { TextFolding.phoneKey($0) })
            #expect(keys.count == 1, "\(group) → \(keys)")
        }
        #expect(TextFolding.phoneKey("555 1234") != TextFolding.phoneKey("555 555 1234"))
        #expect(TextFolding.phoneKey("no digits") == nil)
    }

    @Test("Folding: Latin letters through the table, other scripts through Foundation")
    func folding() {
        #expect(TextFolding.fold("José Núñez") == "jose nunez")
        #expect(TextFolding.fold("ÅNGSTRÖM Łukasz Ærø Straße") == "angstrom lukasz aero strasse")
        #expect(
            TextFolding.fold("Ἀθῆναι")
                == "Ἀθῆναι".folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil))
        #expect(TextFolding.fold("Zoe\u{0308}") == "zoe")
    }

    @Test("Predicates combine with AND", arguments: StoreKind.available)
    func combined(kind: StoreKind) async throws {
        let store = try await seeded(kind).store
        let group = Group(name: "Smiths I know")
        let bob = try await store.contacts(ContactFetchRequest(predicate: .matchingName("bob"), keysToFetch: []))
            .contacts[0]
        var request = SaveRequest()
        request.add(group)
        request.addMember(bob.identifier, toGroup: group.identifier)
        try await store.execute(request)
        #expect(
            try await search(store, ContactPredicate(matchingName: "smith", groupIdentifier: group.identifier)) == [
                "Bob Smith"
            ])
        #expect(
            try await search(store, ContactPredicate(matchingName: "anna", groupIdentifier: group.identifier)) == [])
        #expect(
            try await search(store, .matchingName("smith").and(.matchingEmailAddress("anna@example.com"))) == [
                "Anna Smith"
            ])
        let container = try await store.defaultContainer().identifier
        #expect(try await store.contactCount(matching: .inContainer(container)) == 6)
        #expect(try await store.contactCount(matching: .inContainer("other")) == 0)
        #expect(try await store.contactCount(matching: .matchingName("smith")) == 3)
        #expect(try await search(store, .withIdentifiers([bob.identifier, "missing"])) == ["Bob Smith"])
    }

    @Test("Sort orders: folded names, organization fallback, identifier ties", arguments: StoreKind.available)
    func sortOrders(kind: StoreKind) async throws {
        let store = try await seeded(kind).store
        #expect(
            try await search(store, .all, order: .familyName) == [
                "", "Zoë Ångström", "José Núñez", "Anna Smith", "Bob Smith", "Annabel Smithson",
            ])  // "" is Acme Corp, sorted by organization name
        #expect(
            try await search(store, .all, order: .givenName) == [
                "", "Anna Smith", "Annabel Smithson", "Bob Smith", "José Núñez", "Zoë Ångström",
            ])
        #expect(try await store.userDefaultSortOrder() == .familyName)
        try await store.setUserDefaultSortOrder(.givenName)
        #expect(try await search(store, .all, order: .userDefault) == search(store, .all, order: .givenName))
        #expect(try await search(store, .all, order: .none).first == "José Núñez")
        // Ties on the name break by identifier.
        let twins = [Make.person("Sam", "Twin"), Make.person("Sam", "Twin"), Make.person("Sam", "Twin")]
        try await store.add(twins)
        let page = try await store.contacts(
            ContactFetchRequest(
                predicate: .matchingName("twin"), keysToFetch: [],
                sortOrder: .familyName))
        #expect(page.contacts.map(\.identifier) == twins.map(\.identifier).sorted())
    }

    @Test(
        "A name query of many words matches only contacts where every word prefixes a name word",
        arguments: StoreKind.available)
    func manyWords(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        try await store.add([
            Make.person("Anna", "Smith", organization: "Acme Corp"),
            Make.person("Anna", "Smithers", organization: "Acme"),
        ])
        #expect(try await search(store, .matchingName("an sm ac co anna smith corp")) == ["Anna Smith"])
        #expect(try await search(store, .matchingName("an sm ac anna smith smithe")) == ["Anna Smithers"])
        #expect(try await search(store, .matchingName("an sm ac co anna smith corpx")) == [])
        // Hundreds of words: a refusal, not a stall; twelve, an answer.
        let many = (0..<200).map { "w\($0)" }.joined(separator: " ")
        let refused = await #expect(throws: StoreError.self) { try await search(store, .matchingName(many)) }
        #expect(refused?.code == .predicateInvalid)
        let twelve = (0..<12).map { "w\($0)" }.joined(separator: " ")
        #expect(try await search(store, .matchingName(twelve)) == [])
    }

    @Test(
        "Contacts read by identifier carry every requested value in order, with labels and identifiers",
        arguments: StoreKind.available)
    func byIdentifierWithValues(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        var rich = Make.person("Anna", "Smith", phones: ["555 0100", "555 0101"])
        rich.emailAddresses = [
            LabeledValue(label: ContactLabel.work, value: "anna@work.example"),
            LabeledValue(value: "anna@nolabel.example"),
            LabeledValue(label: "custom", value: "anna@custom.example"),
        ]
        rich.urlAddresses = [LabeledValue(label: ContactLabel.urlHomePage, value: "https://anna.example")]
        let bare = Make.person("Bob", "Bare")
        try await store.add([rich, bare])
        let keys: ContactKeySet = [.givenName, .emailAddresses, .phoneNumbers]
        // The same contacts from a page, which reads values separately, are the reference for identifiers.
        let page = try await store.contacts(ContactFetchRequest(keysToFetch: keys, sortOrder: .givenName))
        let read = try await store.contacts(
            withIdentifiers: [bare.identifier, "missing", rich.identifier, bare.identifier], keysToFetch: keys)
        #expect(read.map(\.identifier) == [bare.identifier, rich.identifier])
        #expect(read.map(\.identifier) == page.contacts.map(\.identifier).reversed())
        let anna = try #require(read.last)
        #expect(anna.emailAddresses.map(\.label) == [ContactLabel.work, nil, "custom"])
        #expect(anna.emailAddresses.map(\.value) == rich.emailAddresses.map(\.value))
        #expect(anna.emailAddresses == page.contacts[0].emailAddresses)
        #expect(anna.phoneNumbers == page.contacts[0].phoneNumbers)
        #expect(anna.phoneNumbers.map(\.value) == ["555 0100", "555 0101"])
        #expect(anna.emailAddresses.allSatisfy { $0.identifier != nil })
        #expect(read[0].emailAddresses.isEmpty && read[0].phoneNumbers.isEmpty)
        let single = try await store.contact(withIdentifier: rich.identifier, keysToFetch: keys)
        #expect(single.emailAddresses == anna.emailAddresses)
    }

    @Test("Reading a key that was not fetched traps with a clear message")
    func unfetchedKeyTraps() async {
        await #expect(processExitsWith: .failure) {
            let store = try await StoreFixture(.inMemory).store
            try await store.add([Make.person("Anna", "Smith")])
            let contact = try await store.contacts(ContactFetchRequest(keysToFetch: [.givenName])).contacts[0]
            _ = contact.familyName
        }
    }
}
