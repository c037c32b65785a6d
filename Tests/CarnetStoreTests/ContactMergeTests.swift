import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

@Suite("Merging contacts")
struct ContactMergeTests {
    func merge(_ absorbed: [String], into survivor: String, author: String = "merger") -> SaveRequest {
        var request = SaveRequest(transactionAuthor: author)
        request.merge(contactsWithIdentifiers: absorbed, into: survivor)
        return request
    }

    @Test(
        "The survivor keeps its values, fills empty ones and takes the union of the rest",
        arguments: StoreKind.available)
    func values(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        var kept = Make.person("Anna", "", emails: ["anna@example.com"], phones: ["+1 555 555 1234"])
        kept.note = "Met at the conference"
        var other = Make.person("Annie", "Smith", emails: ["ANNA@Example.com", "a.smith@work.example"])
        other.phoneNumbers = [
            LabeledValue(label: ContactLabel.phoneMobile, value: "(555) 555-1234"),
            LabeledValue(label: ContactLabel.work, value: "+44 20 7946 0958"),
        ]
        other.note = "Prefers email"
        other.jobTitle = "Engineer"
        other.birthday = ContactDate(month: 4, day: 1)
        other.imageData = Data(repeating: 3, count: 64)
        try await store.add([kept, other])
        let before = try await store.contact(withIdentifier: other.identifier, keysToFetch: .all)

        let result = try await store.execute(merge([other.identifier], into: kept.identifier))
        #expect(result.recordIdentifiers == [kept.identifier])

        let merged = try await store.contact(withIdentifier: kept.identifier, keysToFetch: .all)
        #expect(merged.givenName == "Anna")
        #expect(merged.familyName == "Smith")
        #expect(merged.jobTitle == "Engineer")
        #expect(merged.note == "Met at the conference\n\nPrefers email")
        #expect(merged.birthday == ContactDate(month: 4, day: 1))
        #expect(merged.imageData == Data(repeating: 3, count: 64))
        #expect(merged.emailAddresses.map(\.value) == ["anna@example.com", "a.smith@work.example"])
        #expect(merged.phoneNumbers.map(\.value) == ["+1 555 555 1234", "+44 20 7946 0958"])
        // Moved values keep their identifiers and labels.
        #expect(merged.emailAddresses[1].identifier == before.emailAddresses[1].identifier)
        #expect(merged.phoneNumbers[1].identifier == before.phoneNumbers[1].identifier)
        #expect(merged.phoneNumbers[1].label == ContactLabel.work)
        #expect(merged.revision == result.revision)
        await #expect(throws: StoreError.self) {
            try await store.contact(withIdentifier: other.identifier, keysToFetch: [.givenName])
        }
        #expect(try await store.contactCount() == 1)

        // A moved value is the survivor's now: an update names it by the identifier the client held.
        var update = Contact(updating: kept.identifier)
        var phones = merged.phoneNumbers
        phones[1].value = "+44 20 7946 0000"
        update.phoneNumbers = phones
        try await store.execute(SaveRequest(operations: [.updateContact(update, baseRevision: merged.revision)]))
        let edited = try await store.contact(withIdentifier: kept.identifier, keysToFetch: [.phoneNumbers])
        #expect(edited.phoneNumbers[1].identifier == before.phoneNumbers[1].identifier)
        #expect(edited.phoneNumbers[1].value == "+44 20 7946 0000")
        // The absorbed contact's identifier is retired.
        #expect(try await store.unavailableIdentifiers([other.identifier]) == [other.identifier])
    }

    @Test("Memberships move to the survivor and the history tells every replica", arguments: StoreKind.available)
    func membershipsAndHistory(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let (kept, first, second) = (Make.person("Bo", ""), Make.person("", "Berg"), Make.person("Bob", "B"))
        let (friends, work) = (Group(name: "Friends"), Group(name: "Work"))
        var setup = SaveRequest(transactionAuthor: "setup")
        for contact in [kept, first, second] { setup.add(contact) }
        setup.add(friends)
        setup.add(work)
        setup.addMember(kept.identifier, toGroup: friends.identifier)
        setup.addMember(first.identifier, toGroup: friends.identifier)
        setup.addMember(second.identifier, toGroup: work.identifier)
        try await store.execute(setup)
        let token = try await store.currentHistoryToken()

        try await store.execute(merge([first.identifier, second.identifier], into: kept.identifier))

        let groups = try await store.groups(ofContacts: [kept.identifier])[kept.identifier] ?? []
        #expect(Set(groups.map(\.identifier)) == [friends.identifier, work.identifier])
        let members = try await store.members(ofGroups: [friends.identifier, work.identifier], keysToFetch: [])
        #expect(members[friends.identifier]?.map(\.identifier) == [kept.identifier])
        #expect(members[work.identifier]?.map(\.identifier) == [kept.identifier])
        let merged = try await store.contact(withIdentifier: kept.identifier, keysToFetch: [.givenName, .familyName])
        #expect(merged.givenName == "Bo" && merged.familyName == "Berg")

        let page = try await store.changeHistory(
            ChangeHistoryFetchRequest(startingToken: token, includeGroupChanges: true, contactKeys: [.givenName]))
        let events = page.events.map { "\($0.kind) \($0.contactIdentifier ?? "") \($0.groupIdentifier ?? "")" }
        #expect(
            Set(events) == [
                "updateContact \(kept.identifier) ", "addMemberToGroup \(kept.identifier) \(work.identifier)",
                "deleteContact \(first.identifier) ", "deleteContact \(second.identifier) ",
                // Each group lost an absorbed member: a new revision and member count.
                "updateGroup  \(friends.identifier)", "updateGroup  \(work.identifier)",
            ], "\(events)")
        #expect(page.events.first { $0.kind == .updateContact }?.changedKeys == [.familyName])
        #expect(page.events.allSatisfy { $0.author == "merger" })
    }

    @Test("A refused merge writes nothing", arguments: StoreKind.available)
    func refusals(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let exchange = try await store.addContainer(Container(name: "Work", type: .exchange))
        let (a, b) = (Make.person("A", "One"), Make.person("B", "Two"))
        let elsewhere = Make.person("C", "Three")
        var crowded = Make.person("D", "Four")
        crowded.phoneNumbers = (0..<60).map { LabeledValue(label: nil, value: "+1 555 100 \(1000 + $0)") }
        var crowdedToo = Make.person("E", "Five")
        crowdedToo.phoneNumbers = (0..<60).map { LabeledValue(label: nil, value: "+1 555 200 \(1000 + $0)") }
        try await store.add([a, b, crowded, crowdedToo])
        try await store.add([elsewhere], container: exchange.identifier)
        let token = try await store.currentHistoryToken()

        let cases: [(SaveRequest, StoreError.Code, [String])] = [
            (merge([a.identifier], into: a.identifier), .validationFailed, [a.identifier]),
            (merge([], into: a.identifier), .validationFailed, [a.identifier]),
            (merge([b.identifier, b.identifier], into: a.identifier), .validationFailed, [a.identifier]),
            (merge(["no-such-contact"], into: a.identifier), .recordDoesNotExist, ["no-such-contact"]),
            (merge([a.identifier], into: "no-such-contact"), .recordDoesNotExist, ["no-such-contact"]),
            (
                merge([elsewhere.identifier], into: a.identifier), .containmentScope,
                [a.identifier, elsewhere.identifier]
            ),
            (
                merge([crowdedToo.identifier], into: crowded.identifier), .validationFailed,
                [crowded.identifier, crowdedToo.identifier]
            ),
            (merge(["bad id!"], into: a.identifier), .recordIdentifierInvalid, ["bad id!"]),
        ]
        for (request, code, affected) in cases {
            let error = await refusal(store, request)
            #expect(error?.code == code, "\(request.operations)")
            #expect(error?.affectedRecordIdentifiers == affected, "\(request.operations)")
        }
        // A merge that succeeds, then an operation that fails: the whole save is refused.
        var request = merge([b.identifier], into: a.identifier)
        request.delete(contactWithIdentifier: b.identifier)
        #expect(await refusal(store, request)?.code == .recordDoesNotExist)

        #expect(try await store.currentHistoryToken() == token)
        #expect(try await store.contactCount() == 5)
        let names = try await store.contacts(withIdentifiers: [a.identifier, b.identifier], keysToFetch: [.familyName])
        #expect(names.map(\.familyName) == ["One", "Two"])
    }
}
