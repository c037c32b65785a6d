import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// Saves with long runs of adds (an import) or deletes (a clean-up): a backend may write a run in batches, and must give what operations one by
/// one give: the records, their order, values, containers, history, name index and errors.
@Suite("Saves with many adds and deletes")
struct BulkSaveTests {
    static let baseSeed = SeededRandom.seed(from: "CARNET_ADD_SEED")
    static let names = ["Anna", "Bulk7", "Élodie", "Smith", "Ng", "O'Brien", "Zoë", "Kim Min"]

    /// One operation generated, with what it should leave.
    private struct Planned {
        var operation: SaveOperation
        var contact: Contact?
        var container: String?
    }

    @Test(
        "A generated import of adds, groups and members saves as its operations one by one",
        arguments: StoreKind.available)
    func generatedImport(kind: StoreKind) async throws {
        let seed = Self.baseSeed &+ UInt64(StoreKind.allCases.firstIndex(of: kind)!)
        var random = SeededRandom(seed: seed)
        let store = try await StoreFixture(kind).store
        let work = try await store.addContainer(Container(name: "Work", type: .exchange)).identifier
        let defaultContainer = try await store.defaultContainer().identifier
        let token = try await store.currentHistoryToken()

        var planned: [Planned] = []
        var groups: [String] = []
        var inDefault: [String] = []
        var memberships: Set<String> = []
        // A first run of adds longer than a batch, then adds mixed with groups and members.
        for index in 0..<1_150 {
            if index >= 620, random.chance(3) {
                let group = Group(name: "Group \(index)")
                groups.append(group.identifier)
                planned.append(Planned(operation: .addGroup(group, containerIdentifier: nil)))
            } else if random.chance(4), let group = random.pick(groups), let member = random.pick(inDefault),
                memberships.insert("\(member) \(group)").inserted
            {
                planned.append(Planned(operation: .addMember(contactIdentifier: member, groupIdentifier: group)))
            } else {
                let explicit = random.chance(20) ? Contact.makeIdentifier() : nil
                var contact = Contact(identifier: explicit)
                contact.givenName = random.pick(Self.names)!
                contact.familyName = "\(random.pick(Self.names)!) \(index)"
                contact.emailAddresses = (0..<random.int(0...2)).map {
                    LabeledValue(label: ContactLabel.home, value: "p\(index)-\($0)@example.com")
                }
                contact.phoneNumbers = (0..<random.int(0...2)).map {
                    LabeledValue(label: nil, value: "+1 555 \(index)\($0)")
                }
                if random.chance(3) { contact.imageData = Data([0x89, 0x50, 0x4E, 0x47, UInt8(index % 256)]) }
                let container = random.chance(10) ? work : nil
                if container == nil { inDefault.append(contact.identifier) }
                planned.append(
                    Planned(
                        operation: .addContact(contact, containerIdentifier: container), contact: contact,
                        container: container ?? defaultContainer))
            }
        }
        let result = try await store.execute(
            SaveRequest(transactionAuthor: "import", operations: planned.map(\.operation)))
        let added = planned.compactMap(\.contact)
        #expect(result.recordIdentifiers.count == planned.count, "seed \(seed)")
        #expect(try await store.contactCount() == added.count, "seed \(seed)")

        // Creation order, names, values and images, as given.
        let stored = try await Self.allContacts(
            store, keys: [.givenName, .familyName, .emailAddresses, .phoneNumbers, .imageDataAvailable])
        #expect(stored.map(\.identifier) == added.map(\.identifier), "seed \(seed): creation order")
        for (given, saved) in zip(added, stored) {
            #expect(
                saved.givenName == given.givenName && saved.familyName == given.familyName
                    && saved.emailAddresses.map(\.value) == given.emailAddresses.map(\.value)
                    && saved.emailAddresses.map(\.label) == given.emailAddresses.map(\.label)
                    && saved.phoneNumbers.map(\.value) == given.phoneNumbers.map(\.value)
                    && saved.imageDataAvailable == (given.imageData != nil),
                "seed \(seed): \(given.identifier)")
        }
        let valueIdentifiers = stored.flatMap {
            $0.emailAddresses.map(\.identifier) + $0.phoneNumbers.map(\.identifier)
        }
        #expect(Set(valueIdentifiers).count == valueIdentifiers.count, "seed \(seed): value identifiers")
        let inWork = try await store.contacts(
            ContactFetchRequest(
                predicate: ContactPredicate(containerIdentifier: work), keysToFetch: [],
                page: .first(StoreLimits.pageSize), includeTotalCount: true))
        #expect(inWork.totalCount == added.indices.filter { planned.compactMap(\.container)[$0] == work }.count)

        // History: one event per operation, in operation order, with the author and the contact's container.
        let events = try await Self.history(store, since: token)
        let expected = planned.map { plan -> String in
            switch plan.operation {
            case .addContact(let contact, _): return "addContact \(contact.identifier) \(plan.container ?? "-")"
            case .addGroup(let group, _): return "addGroup \(group.identifier)"
            case .addMember(let contact, let group): return "addMemberToGroup \(contact) \(group)"
            default: return "?"
            }
        }
        let actual = events.map { event -> String in
            switch event.kind {
            case .addContact: return "addContact \(event.contactIdentifier ?? "-") \(event.containerIdentifier ?? "-")"
            case .addGroup: return "addGroup \(event.groupIdentifier ?? "-")"
            default: return "\(event.kind) \(event.contactIdentifier ?? "-") \(event.groupIdentifier ?? "-")"
            }
        }
        #expect(actual == expected, "seed \(seed): history \(Self.firstDifference(actual, expected))")
        #expect(Set(events.map(\.author)) == ["import"], "seed \(seed)")

        // The name index: every name word finds exactly the contacts that have it.
        for name in ["Bulk7", "Zoë", "O'Brien", "Kim"] {
            let page = try await store.contacts(
                ContactFetchRequest(
                    predicate: .matchingName(name), keysToFetch: [], sortOrder: .familyName, page: .first(1),
                    includeTotalCount: true))
            #expect(
                page.totalCount == added.filter { NameWordSearchTests.matches(name, $0) }.count,
                "seed \(seed): search \(name)")
        }
    }

    @Test("An add that fails inside a long run names its operation and writes nothing", arguments: StoreKind.available)
    func failingAdd(kind: StoreKind) async throws {
        let seed = Self.baseSeed &+ 7 &+ UInt64(StoreKind.allCases.firstIndex(of: kind)!)
        var random = SeededRandom(seed: seed)
        let store = try await StoreFixture(kind).store
        let retired = Make.person("Gone", "Away")
        try await store.add([retired])
        try await store.execute(SaveRequest(operations: [.deleteContact(identifier: retired.identifier)]))
        let group = Group(name: "Existing")
        try await store.execute(SaveRequest(operations: [.addGroup(group, containerIdentifier: nil)]))
        let token = try await store.currentHistoryToken()
        let repeated = Contact.makeIdentifier()

        let failures: [(String, (Int) -> SaveOperation, StoreError.Code)] = [
            (
                "a retired identifier",
                { _ in .addContact(Contact(identifier: retired.identifier), containerIdentifier: nil) },
                .insertedRecordAlreadyExists
            ),
            (
                "a group's identifier",
                { _ in .addContact(Contact(identifier: group.identifier), containerIdentifier: nil) },
                .insertedRecordAlreadyExists
            ),
            (
                "an identifier added earlier in the save",
                { _ in .addContact(Contact(identifier: repeated), containerIdentifier: nil) },
                .insertedRecordAlreadyExists
            ),
            (
                "an unknown container",
                { _ in .addContact(Make.person("No", "Place"), containerIdentifier: "no-such-container") },
                .recordDoesNotExist
            ),
        ]
        for (what, failing, code) in failures {
            let failAt = random.int(2...1_099)
            var operations: [SaveOperation] = (0..<1_100).map { index in
                .addContact(
                    Make.person("Run", "Member \(index)", emails: ["r\(index)@example.com"]), containerIdentifier: nil)
            }
            operations[random.int(0...(failAt - 1))] = .addContact(
                Contact(identifier: repeated), containerIdentifier: nil)
            operations[failAt] = failing(failAt)
            let error = await #expect(throws: StoreError.self) {
                try await store.execute(SaveRequest(operations: operations))
            }
            #expect(error?.code == code, "seed \(seed): \(what)")
            #expect(error?.operationIndex == failAt, "seed \(seed): \(what)")
            #expect(try await store.contactCount() == 0, "seed \(seed): \(what)")
            #expect(try await store.currentHistoryToken() == token, "seed \(seed): \(what)")
        }

        // The same new contact twice, then an add that fails its own check: the second add is the error, as one by
        // one; and so again once the contact is saved (a client retrying a save that did commit).
        let twice = Make.person("Twice", "Added")
        func run(_ adds: Int, with placed: [Int: SaveOperation]) -> [SaveOperation] {
            (0..<adds).map { index in
                placed[index] ?? .addContact(Make.person("Run", "Member \(index)"), containerIdentifier: nil)
            }
        }
        let noPlace = SaveOperation.addContact(Make.person("No", "Place"), containerIdentifier: "no-such-container")
        let second = random.int(400...699)
        var pictured = Make.person("Pictured", "Twice")
        pictured.imageData = Data([0x89, 0x50, 0x4E, 0x47])
        for (what, operations, failAt) in [
            (
                "the same contact twice",
                run(
                    800,
                    with: [
                        random.int(0...399): .addContact(twice, containerIdentifier: nil),
                        second: .addContact(twice, containerIdentifier: nil), 750: noPlace,
                    ]), second
            ),
            (
                "a contact saved before",
                run(600, with: [300: .addContact(twice, containerIdentifier: nil), 500: noPlace]), 300
            ),
            (
                "a contact with an image twice (added one by one)",
                run(
                    4,
                    with: [
                        0: .addContact(pictured, containerIdentifier: nil),
                        2: .addContact(pictured, containerIdentifier: nil), 3: noPlace,
                    ]), 2
            ),
        ] {
            if what == "a contact saved before" { try await store.add([twice]) }
            let twice = what.contains("image") ? pictured : twice
            let before = try await store.currentHistoryToken()
            let error = await #expect(throws: StoreError.self) {
                try await store.execute(SaveRequest(operations: operations))
            }
            #expect(error?.code == .insertedRecordAlreadyExists, "seed \(seed): \(what)")
            #expect(error?.operationIndex == failAt, "seed \(seed): \(what)")
            #expect(error?.affectedRecordIdentifiers == [twice.identifier], "seed \(seed): \(what)")
            #expect(try await store.currentHistoryToken() == before, "seed \(seed): \(what)")
        }
    }

    @Test("A generated clean-up deletes, updates and adds as its operations one by one", arguments: StoreKind.available)
    func generatedCleanUp(kind: StoreKind) async throws {
        let seed = Self.baseSeed &+ 13 &+ UInt64(StoreKind.allCases.firstIndex(of: kind)!)
        var random = SeededRandom(seed: seed)
        let store = try await StoreFixture(kind).store
        var contacts = (0..<1_300).map { index in
            Make.person(random.pick(Self.names)!, "Family \(index)", emails: ["c\(index)@example.com"])
        }
        try await store.add(contacts)
        let group = Group(name: "Kept and gone")
        var setup = SaveRequest(operations: [.addGroup(group, containerIdentifier: nil)])
        var inGroup: Set<String> = []
        for contact in contacts where random.chance(20) {
            setup.addMember(contact.identifier, toGroup: group.identifier)
            inGroup.insert(contact.identifier)
        }
        try await store.execute(setup)
        let token = try await store.currentHistoryToken()

        // A first run of deletes longer than a batch, then deletes mixed with updates and adds.
        var operations: [SaveOperation] = []
        var expected: [String] = []
        var deleted: Set<String> = []
        for (index, contact) in contacts.enumerated() {
            if index < 700 || random.chance(60) {
                operations.append(.deleteContact(identifier: contact.identifier))
                expected.append("deleteContact \(contact.identifier)")
                deleted.insert(contact.identifier)
            } else if random.chance(20) {
                var update = Contact(updating: contact.identifier)
                update.givenName = "Renamed"
                operations.append(.updateContact(update, baseRevision: nil))
                expected.append("updateContact \(contact.identifier)")
                contacts[index].givenName = "Renamed"
            } else if random.chance(10) {
                let added = Make.person("Zoë", "Newcomer \(index)")
                operations.append(.addContact(added, containerIdentifier: nil))
                expected.append("addContact \(added.identifier)")
                contacts.append(added)
            }
        }
        try await store.execute(SaveRequest(transactionAuthor: "clean-up", operations: operations))
        let kept = contacts.filter { !deleted.contains($0.identifier) }
        #expect(try await store.contactCount() == kept.count, "seed \(seed)")

        let stored = try await Self.allContacts(store, keys: [.givenName, .emailAddresses])
        #expect(stored.map(\.identifier) == kept.map(\.identifier), "seed \(seed): survivors in creation order")
        #expect(stored.map(\.givenName) == kept.map(\.givenName), "seed \(seed)")

        let events = try await Self.history(store, since: token)
        // The group's updates (it lost members) stand after its first deleted member of each page: checked apart.
        let actual = events.filter { $0.kind != .updateGroup }.map { "\($0.kind) \($0.contactIdentifier ?? "-")" }
        #expect(actual == expected, "seed \(seed): history \(Self.firstDifference(actual, expected))")
        #expect(events.contains { $0.kind == .updateGroup } == !inGroup.isDisjoint(with: deleted), "seed \(seed)")

        let members = try await store.members(ofGroups: [group.identifier], keysToFetch: [])
        #expect(members[group.identifier, default: []].allSatisfy { !deleted.contains($0.identifier) }, "seed \(seed)")
        for name in ["Renamed", "Zoë", "Bulk7", "Family"] {
            let page = try await store.contacts(
                ContactFetchRequest(
                    predicate: .matchingName(name), keysToFetch: [], sortOrder: .givenName, page: .first(1),
                    includeTotalCount: true))
            #expect(
                page.totalCount == kept.filter { NameWordSearchTests.matches(name, $0) }.count,
                "seed \(seed): search \(name)")
        }
        // Deleted identifiers are retired.
        let again = contacts[0].identifier
        let error = await #expect(throws: StoreError.self) {
            try await store.execute(
                SaveRequest(operations: [.addContact(Contact(identifier: again), containerIdentifier: nil)]))
        }
        #expect(error?.code == .insertedRecordAlreadyExists, "seed \(seed)")
    }

    @Test(
        "Runs of deletes with unknown, repeated, linked and unified identifiers give what deletes one by one give",
        arguments: StoreKind.available)
    func unusualDeletes(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let contacts = (0..<40).map { Make.person("Del", "Member \($0)") }
        try await store.add(contacts)
        let link = try await store.execute(
            SaveRequest(operations: [.linkContacts(identifiers: [contacts[5].identifier, contacts[6].identifier])]))
        let unified = try #require(link.recordIdentifiers.first)
        let token = try await store.currentHistoryToken()
        let run = (10..<30).map { SaveOperation.deleteContact(identifier: contacts[$0].identifier) }

        for (what, bad) in [("an unknown identifier", "no-such-contact"), ("a repeated one", contacts[12].identifier)] {
            var operations = run
            operations.insert(.deleteContact(identifier: bad), at: 7)
            let error = await #expect(throws: StoreError.self) {
                try await store.execute(SaveRequest(operations: operations))
            }
            #expect(error?.code == .recordDoesNotExist, "\(what)")
            #expect(error?.operationIndex == 7, "\(what)")
            #expect(try await store.currentHistoryToken() == token, "\(what)")
        }

        // A unified contact's identifier deletes its members; a member of another link is deleted alone.
        try await store.execute(
            SaveRequest(operations: [.linkContacts(identifiers: [contacts[7].identifier, contacts[8].identifier])]))
        var operations = run
        operations.insert(.deleteContact(identifier: unified), at: 3)
        operations.insert(.deleteContact(identifier: contacts[7].identifier), at: 9)
        let result = try await store.execute(SaveRequest(operations: operations))
        #expect(Set(result.deletedMembers) == [contacts[5].identifier, contacts[6].identifier])
        let gone = Set([5, 6, 7] + Array(10..<30)).map { contacts[$0].identifier }
        let left = try await store.contacts(withIdentifiers: contacts.map(\.identifier), keysToFetch: [])
        #expect(Set(left.map(\.identifier)) == Set(contacts.map(\.identifier)).subtracting(gone))
        #expect(try await store.contactCount() == contacts.count - gone.count)
    }

    /// Every contact of the store in creation order, a page at a time.
    static func allContacts(_ store: any ContactStore, keys: ContactKeySet) async throws -> [Contact] {
        try await store.walk(ContactFetchRequest(keysToFetch: keys), size: StoreLimits.pageSize).contacts
    }

    /// The events since `token`, pulled as a client does while `hasMore`.
    static func history(_ store: any ContactStore, since token: String) async throws -> [ChangeHistoryEvent] {
        var events: [ChangeHistoryEvent] = []
        var request = ChangeHistoryFetchRequest(startingToken: token, includeGroupChanges: true)
        while true {
            let page = try await store.changeHistory(request)
            events += page.events
            request.startingToken = page.token
            if !page.hasMore { return events }
        }
    }

    /// Where two event lists part, for a failure's message (the whole lists run to thousands of lines).
    static func firstDifference(_ actual: [String], _ expected: [String]) -> String {
        let index =
            zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(actual.count, expected.count)
        return "differs at \(index) of \(expected.count): \(actual.dropFirst(index).first ?? "end") against "
            + (expected.dropFirst(index).first ?? "end")
    }
}
