import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// The limit of values per multi-value holds for what a save stores, not only for what it is given: a stale update
/// keeps the values added since its base after its own, and an update through a unified contact splits its lists
/// among the members (outside tester's finds: 101 phone numbers stored; 120 shown and none editable).
@Suite("Lists within their limit after merges and splits")
struct MergedListLimitTests {
    static func phones(_ count: Int, from start: Int = 0) -> [LabeledValue<String>] {
        (start..<start + count).map { LabeledValue(label: ContactLabel.phoneMobile, value: "+1 555 010 \(1000 + $0)") }
    }

    @Test(
        "A stale update whose list and the values added since pass the limit is refused, nothing written",
        arguments: StoreKind.available)
    func staleUpdateOverLimit(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        var contact = Make.person("Many", "Phones")
        contact.phoneNumbers = Self.phones(50)
        try await store.add([contact])
        let base = try await store.contact(withIdentifier: contact.identifier, keysToFetch: [.phoneNumbers])
        var added = Contact(updating: contact.identifier)
        added.phoneNumbers = base.phoneNumbers + Self.phones(1, from: 50)
        try await store.execute(SaveRequest(operations: [.updateContact(added, baseRevision: base.revision)]))
        let token = try await store.currentHistoryToken()

        var stale = Contact(updating: contact.identifier)
        stale.phoneNumbers = Self.phones(StoreLimits.valuesPerProperty, from: 100)
        let error = await #expect(throws: StoreError.self) {
            try await store.execute(SaveRequest(operations: [.updateContact(stale, baseRevision: base.revision)]))
        }
        #expect(error?.code == .validationFailed && error?.keyPaths == ["phoneNumbers"])
        #expect(try await store.currentHistoryToken() == token)
        let stored = try await store.contact(withIdentifier: contact.identifier, keysToFetch: [.phoneNumbers])
        #expect(stored.phoneNumbers.count == 51)

        // Within the limit together, the same stale update is stored, the value added since after its own.
        stale.phoneNumbers = Array(stale.phoneNumbers.prefix(StoreLimits.valuesPerProperty - 1))
        try await store.execute(SaveRequest(operations: [.updateContact(stale, baseRevision: base.revision)]))
        let merged = try await store.contact(withIdentifier: contact.identifier, keysToFetch: [.phoneNumbers])
        #expect(merged.phoneNumbers.count == StoreLimits.valuesPerProperty)
        #expect(merged.phoneNumbers.last?.value == "+1 555 010 1050")
    }

    @Test(
        "A contact's own update past the limit is refused, unified updates' larger lists notwithstanding",
        arguments: StoreKind.available)
    func plainUpdateOverLimit(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let contact = Make.person("Plain", "List")
        try await store.add([contact])
        let token = try await store.currentHistoryToken()
        var update = Contact(updating: contact.identifier)
        update.phoneNumbers = Self.phones(StoreLimits.valuesPerProperty + 1)
        update.emailAddresses = (0..<(StoreLimits.valuesPerProperty + 1)).map {
            LabeledValue(value: "u\($0)@example.com")
        }
        let error = await #expect(throws: StoreError.self) {
            try await store.execute(SaveRequest(operations: [.updateContact(update, baseRevision: nil)]))
        }
        #expect(error?.code == .validationFailed && Set(error?.keyPaths ?? []) == ["emailAddresses", "phoneNumbers"])
        #expect(try await store.currentHistoryToken() == token)
    }

    @Test(
        "A unified contact's lists past one contact's limit are edited through it, split among its members",
        arguments: StoreKind.available)
    func unifiedListOverOneContactsLimit(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        var first = Make.person("Split", "One")
        first.phoneNumbers = Self.phones(60)
        var second = Make.person("Split", "Two")
        second.phoneNumbers = Self.phones(60, from: 60)
        let work = try await store.addContainer(Container(name: "Work", type: .cardDAV)).identifier
        try await store.add([first])
        try await store.add([second], container: work)
        var link = SaveRequest()
        link.link(contactsWithIdentifiers: [first.identifier, second.identifier])
        let unifiedID = try #require(try await store.execute(link).recordIdentifiers.first)
        let unified = try await store.contacts(
            withIdentifiers: [unifiedID], keysToFetch: [.phoneNumbers], unify: true
        ).first
        let shown = try #require(unified).phoneNumbers
        #expect(shown.count == 120)

        var update = Contact(updating: unifiedID)
        update.phoneNumbers = Array(shown.dropLast())
        try await store.execute(SaveRequest(operations: [.updateContact(update, baseRevision: nil)]))
        let members = try await store.contacts(
            withIdentifiers: [first.identifier, second.identifier], keysToFetch: [.phoneNumbers])
        #expect(members.map(\.phoneNumbers.count).sorted() == [59, 60])

        // A list whose new values would put the name-preferred member past the limit is refused.
        update.phoneNumbers = Array(shown.dropLast()) + Self.phones(50, from: 200)
        let error = await #expect(throws: StoreError.self) {
            try await store.execute(SaveRequest(operations: [.updateContact(update, baseRevision: nil)]))
        }
        #expect(error?.code == .validationFailed && error?.keyPaths == ["phoneNumbers"])
    }

    /// Kept vCard lines travel as text, without identifiers: a stale update took every current line for one added
    /// since its base and kept it twice (an outside tester's find).
    @Test(
        "Stale updates of kept vCard lines merge by their bytes: no line twice, a dropped one removed",
        arguments: StoreKind.available)
    func staleKeptLines(kind: StoreKind) async throws {
        func lines(_ values: [String]) -> [LabeledValue<String>] { values.map { LabeledValue(value: $0) } }
        let store = try await StoreFixture(kind).store
        var contact = Make.person("Kept", "Lines")
        contact.vCardProperties = lines(["X-L1:1", "X-L2:2", "X-L3:3", "X-L3:3"])
        try await store.add([contact])
        let base = try await store.contact(withIdentifier: contact.identifier, keysToFetch: [.vCardProperties])
        func update(_ values: [String]) async throws {
            var update = Contact(updating: contact.identifier)
            update.vCardProperties = lines(values)
            try await store.execute(SaveRequest(operations: [.updateContact(update, baseRevision: base.revision)]))
        }
        func stored() async throws -> [String] {
            try await store.contact(withIdentifier: contact.identifier, keysToFetch: [.vCardProperties])
                .vCardProperties.map(\.value)
        }
        try await update(["X-L1:1", "X-L2:2", "X-L3:3", "X-L3:3", "X-A1:a"])
        let identifiers = try await store.contact(withIdentifier: contact.identifier, keysToFetch: [.vCardProperties])
            .vCardProperties.prefix(4).map(\.identifier)
        #expect(identifiers == base.vCardProperties.map(\.identifier), "unchanged lines keep their identifiers")
        try await update(["X-L1:1", "X-L2:2", "X-L3:3", "X-L3:3", "X-B1:b"])
        #expect(try await stored() == ["X-L1:1", "X-L2:2", "X-L3:3", "X-L3:3", "X-B1:b", "X-A1:a"])
        try await update(["X-L1:1", "X-L3:3", "X-L3:3"])
        // X-L2 is removed; the lines added since the base stay after the given ones.
        #expect(try await stored() == ["X-L1:1", "X-L3:3", "X-L3:3", "X-B1:b", "X-A1:a"])
    }
}
