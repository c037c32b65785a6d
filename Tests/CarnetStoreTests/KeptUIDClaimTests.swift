import CarnetStore
import CarnetStoreTestSupport
import Testing

/// A kept vCard UID names one contact: its card carries it, and an import finds the contact by it.
@Suite("Kept UIDs name one contact")
struct KeptUIDClaimTests {
    private static func keeping(_ uid: String, identifier: String? = nil) -> Contact {
        var contact = identifier.map { Contact(identifier: $0) } ?? Contact()
        contact.givenName = "Keeper"
        contact.vCardProperties = [LabeledValue(value: "X-FOO:bar"), LabeledValue(value: "UID:\(uid)")]
        return contact
    }

    /// An outside tester's find: `b1` keeping `UID:a1` made two cards of UID `a1`, and a re-import of the export
    /// wrote Bob over Alice.
    @Test(
        "A UID that is another contact's identifier is refused, in the same save or later",
        arguments: StoreKind.available)
    func anotherContactsIdentifier(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        var alice = Contact(identifier: "a1")
        alice.givenName = "Alice"
        let both = SaveRequest(operations: [
            .addContact(alice, containerIdentifier: nil),
            .addContact(Self.keeping("a1", identifier: "b1"), containerIdentifier: nil),
        ])
        let error = try await #require(throws: StoreError.self) { try await store.execute(both) }
        #expect(error.code == .validationFailed)
        #expect(error.operationIndex == 1)
        #expect(error.keyPaths == ["vCardProperties[1]"])
        #expect(error.affectedRecordIdentifiers == ["a1", "b1"])
        #expect(try await store.contacts(withIdentifiers: ["a1", "b1"], keysToFetch: []).isEmpty)

        try await store.execute(SaveRequest(operations: [.addContact(alice, containerIdentifier: nil)]))
        let later = SaveRequest(operations: [
            .addContact(Self.keeping("a1", identifier: "b1"), containerIdentifier: nil)
        ])
        let refused = try await #require(throws: StoreError.self) { try await store.execute(later) }
        #expect(refused.code == .validationFailed && refused.operationIndex == 0)
        #expect(try await store.contacts(withIdentifiers: ["b1"], keysToFetch: []).isEmpty)
    }

    @Test("A UID another contact keeps is refused on add and on update", arguments: StoreKind.available)
    func anotherContactsKeptUID(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let first = Self.keeping("google:123")
        var second = Contact()
        second.givenName = "Second"
        try await store.execute(
            SaveRequest(operations: [
                .addContact(first, containerIdentifier: nil), .addContact(second, containerIdentifier: nil),
            ]))
        let add = SaveRequest(operations: [.addContact(Self.keeping("google:123"), containerIdentifier: nil)])
        let onAdd = try await #require(throws: StoreError.self) { try await store.execute(add) }
        #expect(onAdd.code == .validationFailed && onAdd.affectedRecordIdentifiers.contains(first.identifier))

        var update = try #require(
            try await store.contacts(withIdentifiers: [second.identifier], keysToFetch: [.vCardProperties]).first)
        update.vCardProperties = [LabeledValue(value: "UID:google:123")]
        let onUpdate = try await #require(throws: StoreError.self) {
            try await store.execute(SaveRequest(operations: [.updateContact(update, baseRevision: nil)]))
        }
        #expect(onUpdate.code == .validationFailed)
        #expect(onUpdate.affectedRecordIdentifiers == [first.identifier, second.identifier].sorted())
        let stored = try await store.contacts(withIdentifiers: [second.identifier], keysToFetch: [.vCardProperties])
        #expect(stored.first?.vCardProperties.isEmpty == true)
    }

    @Test(
        "A contact keeps its own UID and its own identifier; a UID let go of in the same save is free",
        arguments: StoreKind.available)
    func allowed(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        // Its own identifier as its UID, and an update that carries its kept line back unchanged.
        let own = Self.keeping("own-1", identifier: "own-1")
        let keeper = Self.keeping("external uid")
        try await store.execute(
            SaveRequest(operations: [
                .addContact(own, containerIdentifier: nil), .addContact(keeper, containerIdentifier: nil),
            ]))
        var again = try #require(
            try await store.contacts(withIdentifiers: [keeper.identifier], keysToFetch: [.vCardProperties, .givenName])
                .first)
        again.givenName = "Renamed"
        try await store.execute(SaveRequest(operations: [.updateContact(again, baseRevision: nil)]))
        // The keeper is deleted and another contact takes its UID, in one save.
        var delete = SaveRequest()
        delete.delete(contactWithIdentifier: keeper.identifier)
        let successor = Self.keeping("external uid")
        delete.operations.append(.addContact(successor, containerIdentifier: nil))
        try await store.execute(delete)
        let found = try await store.contactIdentifiers(keepingVCardUIDs: ["external uid"])
        #expect(found.map(\.contact) == [successor.identifier])
    }
}
