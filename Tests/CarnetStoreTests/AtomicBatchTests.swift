import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// Several save requests as one commit (what a strict vCard import needs), and the identifiers an add could not
/// take.
@Suite("Atomic batches of save requests")
struct AtomicBatchTests {
    @Test("A refusal in the last request writes nothing of the first ones", arguments: StoreKind.available)
    func allOrNothing(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let before = try await store.currentHistoryToken()
        var first = SaveRequest(transactionAuthor: "import")
        first.add(Make.person("Anna", "Smith"))
        first.add(Group(name: "Friends"))
        var second = SaveRequest(transactionAuthor: "import")
        second.add(Make.person("Ben", "Jones"))
        second.delete(contactWithIdentifier: "does-not-exist")
        do {
            try await store.execute(atomically: [first, second])
            Issue.record("the batch should fail")
        } catch let error as StoreError {
            #expect(error.code == .recordDoesNotExist)
            #expect(error.operationIndex == 3)
        }
        #expect(try await store.contactCount() == 0)
        #expect(try await store.groupCount() == 0)
        #expect(try await store.currentHistoryToken() == before)
    }

    @Test("Requests over the per-save limit together make one revision", arguments: StoreKind.available)
    func oneRevision(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let requests = (0..<3).map { index in
            SaveRequest(
                transactionAuthor: "import",
                operations: (0..<4_000).map {
                    .addContact(Make.person("P\(index)", "N\($0)"), containerIdentifier: nil)
                })
        }
        let result = try await store.execute(atomically: requests)
        #expect(result.recordIdentifiers.count == 12_000)
        let page = try await store.contacts(ContactFetchRequest(keysToFetch: [], page: .first(1000)))
        #expect(Set(page.contacts.map(\.revision)) == [try #require(result.revision)])
    }

    @Test("Retired and otherwise used identifiers are unavailable; free ones and contacts' are not")
    func unavailableIdentifiers() async throws {
        let store = try await StoreFixture(.onDiskWAL).store
        let gone = Contact(identifier: "gone-1")
        let kept = Contact(identifier: "kept-1")
        let group = Group(identifier: "group-1", name: "G")
        var request = SaveRequest()
        request.add(gone)
        request.add(kept)
        request.add(group)
        try await store.execute(request)
        var delete = SaveRequest()
        delete.delete(contactWithIdentifier: "gone-1")
        try await store.execute(delete)
        let unavailable = try await store.unavailableIdentifiers(["gone-1", "kept-1", "group-1", "free-1"])
        #expect(unavailable == ["gone-1", "kept-1", "group-1"])
    }

    @Test("Whether any contact keeps a vCard UID")
    func keptUIDs() async throws {
        let store = try await StoreFixture(.onDiskWAL).store
        var plain = Contact()
        plain.vCardProperties = [LabeledValue(value: "X-FOO:bar")]
        try await store.execute(SaveRequest(operations: [.addContact(plain, containerIdentifier: nil)]))
        #expect(try await store.hasContactsKeepingVCardUIDs() == false)
        var keeping = Contact()
        keeping.vCardProperties = [LabeledValue(value: "UID:not an identifier")]
        try await store.execute(SaveRequest(operations: [.addContact(keeping, containerIdentifier: nil)]))
        #expect(try await store.hasContactsKeepingVCardUIDs())
        #expect(try await store.contactIdentifiers(keepingVCardUIDs: ["not an identifier"]).count == 1)
    }

    /// A UID over the indexed length was not indexed: every import of its card added a contact.
    @Test(
        "A long kept UID finds its contact; another that shares its first bytes does not",
        arguments: StoreKind.available)
    func longKeptUIDs(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let stem = String(repeating: "u", count: StoreLimits.indexedUIDBytes)
        var ids: [String] = []
        for uid in [stem + "-first", stem + "-second", "short uid"] {
            var contact = Contact()
            contact.vCardProperties = [LabeledValue(value: "UID:\(uid)")]
            try await store.execute(SaveRequest(operations: [.addContact(contact, containerIdentifier: nil)]))
            ids.append(contact.identifier)
        }
        let found = try await store.contactIdentifiers(
            keepingVCardUIDs: [stem + "-first", stem + "-second", stem + "-third", stem, "short uid"])
        #expect(
            Dictionary(uniqueKeysWithValues: found.map { ($0.uid, $0.contact) })
                == [stem + "-first": ids[0], stem + "-second": ids[1], "short uid": ids[2]])
    }

    /// UIDs that differ only as NFC and NFD spellings, or by a combining mark after `UID:`, are each their own
    /// contact's: a `Set<String>` of keys looked up one spelling, and cutting `UID:` by `Character` lost the mark.
    @Test("Kept UIDs are looked up and answered byte for byte", arguments: StoreKind.available)
    func keptUIDsByBytes(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let uids = [
            "x-\u{E9}", "x-e\u{301}", "\u{301}mark",
            String(repeating: "u", count: StoreLimits.indexedUIDBytes) + "\u{E9}",
        ]
        let long = String(repeating: "u", count: StoreLimits.indexedUIDBytes) + "e\u{301}"
        // Pairs, not a `[String: String]`: its keys would take the two spellings for one UID too.
        var ids: [(uid: String, contact: String)] = []
        for uid in uids + [long] {
            var contact = Contact()
            contact.vCardProperties = [LabeledValue(value: "UID:\(uid)")]
            try await store.execute(SaveRequest(operations: [.addContact(contact, containerIdentifier: nil)]))
            ids.append((uid, contact.identifier))
        }
        let found = try await store.contactIdentifiers(keepingVCardUIDs: uids)
        #expect(found.count == uids.count)
        for (uid, contact) in ids.prefix(uids.count) {
            let matches = found.filter { Array($0.uid.utf8) == Array(uid.utf8) }
            #expect(matches.map(\.contact) == [contact], "\(uid.debugDescription)")
        }
    }
}
