import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// Saves with long runs of updates (a sync or a clean-up renaming thousands): a backend may write a run of plain
/// updates in batches, and must give what the updates one by one give: values, revisions, key revisions (which
/// later merges read), the name index and sort keys, history with each update's changed keys, and no event for an
/// update that changes nothing.
@Suite("Saves with many updates")
struct BulkUpdateTests {
    static let givenNames = ["Anna", "Bulk7", "Élodie", "Smith", "Zoë", "Kim Min"]

    @Test("A generated run of updates saves as its operations one by one", arguments: StoreKind.available)
    func generatedUpdates(kind: StoreKind) async throws {
        let seed = BulkSaveTests.baseSeed &+ 29 &+ UInt64(StoreKind.allCases.firstIndex(of: kind)!)
        var random = SeededRandom(seed: seed)
        let store = try await StoreFixture(kind).store
        var contacts = (0..<1_200).map { index in
            var contact = Make.person(random.pick(Self.givenNames)!, "Family \(index)", emails: ["u\(index)@x.org"])
            contact.jobTitle = "Old"
            return contact
        }
        try await store.add(contacts)
        // Every family name changed once before: the later save's key revisions must replace these rows.
        var renames = SaveRequest()
        for contact in contacts {
            var update = Contact(updating: contact.identifier)
            update.familyName = contact.familyName + "."
            renames.operations.append(.updateContact(update, baseRevision: nil))
        }
        try await store.execute(renames)
        for index in contacts.indices { contacts[index].familyName += "." }
        let before = try await store.currentHistoryToken()
        let baseRevision = try #require(
            try await store.contact(withIdentifier: contacts[0].identifier, keysToFetch: []).revision)

        // A first run longer than a batch, then updates mixed with ones that change nothing, ones with a base
        // revision (one by one), adds and deletes. One operation per contact: history coalesces a record's events
        // (a contact updated twice in a run is `unusualUpdates`'s).
        var operations: [SaveOperation] = []
        var expected: [String] = []
        var deleted: Set<String> = []
        var touched: [String: Set<ContactKey>] = [:]
        var used: Set<String> = []
        for step in 0..<1_500 {
            let index = step < 700 ? step : random.int(0...1_199)
            let id = contacts[index].identifier
            guard used.insert(id).inserted else { continue }
            if step >= 700, random.chance(8) {
                operations.append(.deleteContact(identifier: id))
                expected.append("deleteContact \(id)")
                deleted.insert(id)
                continue
            }
            if step >= 700, random.chance(5) {
                let added = Make.person("Added", "Late \(step)")
                operations.append(.addContact(added, containerIdentifier: nil))
                expected.append("addContact \(added.identifier) []")
                contacts.append(added)
                continue
            }
            var update = Contact(updating: id)
            var changed: [ContactKey] = []
            if random.chance(50) {
                let given = random.chance(15) ? contacts[index].givenName : random.pick(Self.givenNames)! + " \(step)"
                update.givenName = given
                if given != contacts[index].givenName { changed.append(.givenName) }
                contacts[index].givenName = given
            }
            if random.chance(40) {
                update.familyName = "Renamed \(step)"
                changed.append(.familyName)
                contacts[index].familyName = "Renamed \(step)"
            }
            if random.chance(40) || update.modifiedKeys.isEmpty {
                let title = random.chance(20) ? contacts[index].jobTitle : "Title \(step)"
                update.jobTitle = title
                if title != contacts[index].jobTitle { changed.append(.jobTitle) }
                contacts[index].jobTitle = title
            }
            // A base revision merges with what changed since: nothing, as this save changes the contact once.
            let base: Int64? = step >= 700 && random.chance(5) ? baseRevision : nil
            operations.append(.updateContact(update, baseRevision: base))
            if !changed.isEmpty {
                expected.append("updateContact \(id) \(changed.sorted().map(\.rawValue))")
                touched[id, default: []].formUnion(changed)
            }
        }
        let result = try await store.execute(SaveRequest(transactionAuthor: "bulk-update", operations: operations))
        let revision = try #require(result.revision)

        let kept = contacts.filter { !deleted.contains($0.identifier) }
        let stored = try await BulkSaveTests.allContacts(store, keys: [.givenName, .familyName, .jobTitle])
        #expect(stored.map(\.identifier) == kept.map(\.identifier), "seed \(seed)")
        let values = { (c: Contact) in "\(c.identifier) \(c.givenName) | \(c.familyName) | \(c.jobTitle)" }
        let actualValues = stored.map(values)
        let expectedValues = kept.map(values)
        #expect(
            actualValues == expectedValues,
            "seed \(seed): \(BulkSaveTests.firstDifference(actualValues, expectedValues))")
        // Revisions: this save's for every contact it changed, the earlier one for the others.
        for contact in stored {
            let changed = touched[contact.identifier] != nil || contact.familyName.hasPrefix("Late ")
            #expect((contact.revision == revision) == changed, "seed \(seed): revision of \(contact.identifier)")
        }

        let events = try await BulkSaveTests.history(store, since: before)
        let actual = events.map { event in
            "\(event.kind) \(event.contactIdentifier ?? "-")"
                + (event.kind == .deleteContact ? "" : " \(event.changedKeys.map(\.rawValue))")
        }
        #expect(actual == expected, "seed \(seed): history \(BulkSaveTests.firstDifference(actual, expected))")
        #expect(events.allSatisfy { $0.author == "bulk-update" }, "seed \(seed)")

        // Name search and order follow the new names.
        for name in ["Renamed", "Zoë", "Bulk7", "Family", "Added"] {
            let page = try await store.contacts(
                ContactFetchRequest(
                    predicate: .matchingName(name), keysToFetch: [], sortOrder: .familyName, page: .first(1),
                    includeTotalCount: true))
            #expect(
                page.totalCount == kept.filter { NameWordSearchTests.matches(name, $0) }.count,
                "seed \(seed): search \(name)")
        }
        let first = try await store.contacts(
            ContactFetchRequest(keysToFetch: [.familyName], sortOrder: .familyName, page: .first(5)))
        let order = kept.enumerated().sorted {
            (ContactIndexing.sortKey($0.element, .familyName), $0.offset)
                < (ContactIndexing.sortKey($1.element, .familyName), $1.offset)
        }
        #expect(
            first.contacts.map(\.identifier) == order.prefix(5).map(\.element.identifier),
            "seed \(seed): family-name order")

        // Key revisions: a later update from before the save conflicts on a key the save changed, and merges on
        // one it left alone.
        let renamed = try #require(kept.first { touched[$0.identifier]?.contains(.familyName) == true })
        var late = Contact(updating: renamed.identifier)
        late.familyName = "Late"
        let conflict = await #expect(throws: StoreError.self) {
            try await store.execute(SaveRequest(operations: [.updateContact(late, baseRevision: baseRevision)]))
        }
        #expect(conflict?.code == .conflict && conflict?.keyPaths == ["familyName"], "seed \(seed)")
        let titled = try #require(
            kept.first { touched[$0.identifier] == [.jobTitle] })
        var merge = Contact(updating: titled.identifier)
        merge.familyName = "Merged"
        try await store.execute(SaveRequest(operations: [.updateContact(merge, baseRevision: baseRevision)]))
    }

    @Test(
        "Runs of updates with unknown, repeated and unified identifiers give what updates one by one give",
        arguments: StoreKind.available)
    func unusualUpdates(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let contacts = (0..<40).map { Make.person("Up", "Member \($0)") }
        try await store.add(contacts)
        let link = try await store.execute(
            SaveRequest(operations: [.linkContacts(identifiers: [contacts[5].identifier, contacts[6].identifier])]))
        let unified = try #require(link.recordIdentifiers.first)
        let token = try await store.currentHistoryToken()
        func rename(_ id: String, _ title: String) -> SaveOperation {
            var update = Contact(updating: id)
            update.jobTitle = title
            return .updateContact(update, baseRevision: nil)
        }
        let run = (10..<30).map { rename(contacts[$0].identifier, "Run") }

        var operations = run
        operations.insert(rename("no-such-contact", "Nobody"), at: 7)
        let error = await #expect(throws: StoreError.self) {
            try await store.execute(SaveRequest(operations: operations))
        }
        #expect(error?.code == .recordDoesNotExist && error?.operationIndex == 7)
        #expect(try await store.currentHistoryToken() == token)

        // The same contact twice (the later value wins) and a unified contact's identifier (its member is written).
        operations = run
        operations.insert(rename(contacts[12].identifier, "Second"), at: 15)
        operations.insert(rename(unified, "Unified"), at: 3)
        try await store.execute(SaveRequest(operations: operations))
        let stored = try await store.contacts(
            withIdentifiers: contacts.map(\.identifier), keysToFetch: [.jobTitle])
        let titles = Dictionary(uniqueKeysWithValues: stored.map { ($0.identifier, $0.jobTitle) })
        #expect(titles[contacts[12].identifier] == "Second")
        #expect(titles[contacts[20].identifier] == "Run")
        #expect(titles[contacts[0].identifier] == "")
        let members = [titles[contacts[5].identifier], titles[contacts[6].identifier]]
        #expect(members.contains("Unified"))
    }
}
