import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// Text that Swift's `String` takes for equal and the databases do not: NFC and NFD spellings of one text are equal
/// to Swift (`==`, `Set`, `Dictionary`) and differ byte by byte to SQLite and PostgreSQL. Where the store decided
/// with Swift's equality, it dropped one spelling (an outside tester's finds: an update to the other spelling was
/// ignored, and PostgreSQL kept one spelling's name rows, so a search in a name order returned fewer contacts than
/// its own count). Also long runs of combining marks, which Swift normalizes in quadratic time.
@Suite("Canonically equal spellings")
struct CanonicalSpellingTests {
    /// "한국" precomposed and as jamo: equal to Swift, other bytes.
    static let composed = "\u{D55C}\u{AD6D}"
    static let decomposed = "\u{1112}\u{1161}\u{11AB}\u{1100}\u{116E}\u{11A8}"

    @Test("An update to another spelling of the same text is stored, with a revision", arguments: StoreKind.available)
    func updateToOtherSpelling(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        #expect(Self.composed == Self.decomposed)
        let contact = Make.person("Jos\u{E9}", Self.composed)
        try await store.add([contact])
        var update = Contact(updating: contact.identifier)
        update.givenName = "Jose\u{301}"
        update.familyName = Self.decomposed
        let result = try await store.execute(SaveRequest(operations: [.updateContact(update, baseRevision: nil)]))
        #expect(result.revision != nil)
        let stored = try await store.contact(
            withIdentifier: contact.identifier, keysToFetch: [.givenName, .familyName])
        #expect(Array(stored.givenName.utf8) == Array("Jose\u{301}".utf8))
        #expect(Array(stored.familyName.utf8) == Array(Self.decomposed.utf8))
    }

    @Test(
        "A group renamed and a labeled value changed to another spelling are stored, with a revision",
        arguments: StoreKind.available)
    func groupAndValueToOtherSpelling(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        var contact = Make.person("Ann", "Lee")
        contact.emailAddresses = [LabeledValue(label: "Jos\u{E9}", value: "jos\u{E9}@example.com")]
        let group = Group(name: "Jos\u{E9}")
        var request = SaveRequest()
        request.add(contact)
        request.add(group)
        try await store.execute(request)
        let stored = try await store.contact(withIdentifier: contact.identifier, keysToFetch: [.emailAddresses])
        var update = Contact(updating: contact.identifier)
        update.emailAddresses = [
            LabeledValue(
                identifier: stored.emailAddresses[0].identifier, label: "Jose\u{301}", value: "jose\u{301}@example.com")
        ]
        var renamed = group
        renamed.name = "Jose\u{301}"
        var edits = SaveRequest()
        edits.update(update)
        edits.update(renamed)
        let result = try await store.execute(edits)
        #expect(result.revision != nil)
        let after = try await store.contact(withIdentifier: contact.identifier, keysToFetch: [.emailAddresses])
        #expect(after.emailAddresses.count == 1)
        #expect(after.emailAddresses.first?.identifier == stored.emailAddresses[0].identifier)
        #expect(after.emailAddresses.first.map { Array($0.value.utf8) } == Array("jose\u{301}@example.com".utf8))
        #expect(after.emailAddresses.first?.label.map { Array($0.utf8) } == Array("Jose\u{301}".utf8))
        #expect(try await store.groups().map { Array($0.name.utf8) } == [Array("Jose\u{301}".utf8)])
    }

    @Test("A value respelled through a unified contact is stored, with a revision", arguments: StoreKind.available)
    func unifiedValueToOtherSpelling(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        var first = Make.person("Ann", "Lee")
        first.emailAddresses = [LabeledValue(label: "home", value: "jos\u{E9}@example.com")]
        let second = Make.person("Ann", "Lee")
        let work = try await store.addContainer(Container(name: "Work", type: .cardDAV)).identifier
        try await store.add([first])
        try await store.add([second], container: work)
        var link = SaveRequest()
        link.link(contactsWithIdentifiers: [first.identifier, second.identifier])
        let unifiedID = try #require(try await store.execute(link).recordIdentifiers.first)
        let shown = try #require(
            try await store.contacts(withIdentifiers: [unifiedID], keysToFetch: [.emailAddresses], unify: true).first)
        var update = Contact(updating: unifiedID)
        update.emailAddresses = shown.emailAddresses.map {
            LabeledValue(identifier: $0.identifier, label: $0.label, value: "jose\u{301}@example.com")
        }
        let result = try await store.execute(SaveRequest(operations: [.updateContact(update, baseRevision: nil)]))
        #expect(result.revision != nil)
        let stored = try await store.contact(withIdentifier: first.identifier, keysToFetch: [.emailAddresses])
        #expect(stored.emailAddresses.map { Array($0.value.utf8) } == [Array("jose\u{301}@example.com".utf8)])
    }

    @Test(
        "A contact with both spellings of a word is found in a name order by either, and pages match the count",
        arguments: StoreKind.available)
    func bothSpellingsSearch(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        var contacts: [Contact] = []
        for index in 0..<12 {
            // Both spellings in one contact's names, or one of them.
            let given =
                index % 3 == 0
                ? "\(Self.decomposed) \(Self.composed)" : index % 3 == 1 ? Self.composed : Self.decomposed
            contacts.append(Make.person(given, "Family \(index)"))
        }
        try await store.add(contacts)
        for query in [Self.composed, Self.decomposed, String(Self.composed.unicodeScalars.prefix(1))] {
            for order in [ContactSortOrder.givenName, .familyName, .none] {
                let (contacts, total) = try await store.walk(
                    ContactFetchRequest(
                        predicate: .matchingName(query), keysToFetch: [], sortOrder: order, includeTotalCount: true),
                    size: 3)
                let found = contacts.map(\.identifier)
                #expect(found.count == total, "\(query.debugDescription) \(order): \(found.count) of \(total ?? -1)")
                #expect(Set(found).count == found.count, "\(query.debugDescription) \(order): repeated")
            }
        }
    }

    /// An outside tester's find: a unified page merged by Swift's order, which sorts NFD Hangul as its syllable,
    /// while the databases order bytes: a page of 3 repeated a contact, and the order changed with the page size.
    @Test(
        "Pages of a unified name search neither repeat nor change order with their size, whatever the spelling",
        arguments: StoreKind.available)
    func unifiedPagingByBytes(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let long = (0..<130).map { String(format: "p%03d", $0) }.joined(separator: " ")
        var contacts: [Contact] = []
        let givenNames = [
            "\u{1112}\u{1161}\u{11AB}", "\u{65E5}", "\u{AE40}", "a", "\u{FF46}", "\u{1112}\u{1161}\u{11AB}x", "zz",
        ]
        for given in givenNames {
            contacts.append(Make.person(given, "anna"))
            var padded = Make.person(given, "anna")
            padded.nickname = long
            contacts.append(padded)
        }
        try await store.add(contacts)
        for order in [ContactSortOrder.givenName, .familyName] {
            var lists: [[String]] = []
            for size in [1, 3, 50] {
                var request = ContactFetchRequest(
                    predicate: .matchingName("anna"), keysToFetch: [], sortOrder: order, includeTotalCount: true)
                request.unifyResults = true
                let found = try await store.walk(request, size: size).contacts.map(\.identifier)
                #expect(found.count == contacts.count && Set(found).count == found.count, "\(order) first \(size)")
                lists.append(found)
            }
            #expect(lists.allSatisfy { $0 == lists[0] }, "\(order): the order changes with the page size")
        }
    }

    @Test("A value with more combining marks in a row than JSON takes is refused by the store too")
    func combiningMarks() async throws {
        let store = try await StoreFixture(.inMemory).store
        var contact = Make.person("Marks", "Test")
        contact.note = "a" + String(repeating: "\u{301}\u{316}", count: 200)
        let error = await #expect(throws: StoreError.self) { try await store.add([contact]) }
        #expect(error?.code == .validationFailed && error?.keyPaths == ["note"])
        contact.note = "a" + String(repeating: "\u{301}", count: CombiningMarks.maxRun)
        try await store.add([contact])
    }
}
