import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

@Suite("Change history")
struct HistoryTests {
    static func describe(_ events: [ChangeHistoryEvent]) -> [String] {
        events.map { event in
            var text = "\(event.kind)"
            if let contact = event.contact, contact.isKeyAvailable(.givenName) { text += " \(contact.givenName)" }
            // A membership's group (as it is now) is its group event's business here.
            if let group = event.group, event.kind == .addGroup || event.kind == .updateGroup {
                text += " \(group.name)"
            }
            if !event.changedKeys.isEmpty { text += " [\(event.changedKeys.map(\.rawValue).joined(separator: ","))]" }
            return text
        }
    }

    func fetch(
        _ store: any ContactStore, since token: String?, groups: Bool = false, excluding: Set<String> = [],
        limit: Int = 1000
    ) async throws -> ChangeHistoryPage {
        try await store.changeHistory(
            ChangeHistoryFetchRequest(
                startingToken: token, includeGroupChanges: groups, excludedAuthors: excluding,
                contactKeys: [.givenName],
                limit: limit))
    }

    @Test("Events are coalesced per record", arguments: StoreKind.available)
    func coalescing(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let kept = Make.person("Kept", "One")
        let updated = Make.person("Updated", "Two")
        try await store.add([updated])
        let token = try await store.currentHistoryToken()
        let gone = Make.person("Gone", "Three")
        try await store.add([kept, gone])
        var first = Contact(updating: kept.identifier)
        first.jobTitle = "CEO"
        var second = Contact(updating: updated.identifier)
        second.note = "note"
        var third = Contact(updating: updated.identifier)
        third.familyName = "Deux"
        var request = SaveRequest()
        request.update(first)
        request.update(second)
        request.update(third)
        request.delete(contactWithIdentifier: gone.identifier)
        try await store.execute(request)
        let page = try await fetch(store, since: token)
        // Gone was added and deleted after the token: the delete still comes, as the client may have seen the add.
        #expect(
            Self.describe(page.events) == [
                "addContact Kept", "deleteContact", "updateContact Updated [familyName,note]",
            ])
        #expect(page.events[1].contactIdentifier == gone.identifier)
        #expect(page.events[0].containerIdentifier == (try await store.defaultContainer().identifier))
        #expect(!page.hasMore)
        // Caught up: nothing more since the new token.
        #expect(try await fetch(store, since: page.token).events.isEmpty)
    }

    @Test("Deletes, group changes and memberships, with their authors", arguments: StoreKind.available)
    func groupsAndAuthors(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let anna = Make.person("Anna", "Smith")
        let bob = Make.person("Bob", "Jones")
        let group = Group(name: "Friends")
        try await store.add([anna, bob], author: "setup")
        let token = try await store.currentHistoryToken()
        var request = SaveRequest(transactionAuthor: "phone")
        request.add(group)
        request.addMember(anna.identifier, toGroup: group.identifier)
        request.addMember(bob.identifier, toGroup: group.identifier)
        request.removeMember(bob.identifier, fromGroup: group.identifier)
        try await store.execute(request)
        var delete = SaveRequest(transactionAuthor: "web")
        delete.delete(contactWithIdentifier: bob.identifier)
        try await store.execute(delete)

        let withGroups = try await fetch(store, since: token, groups: true)
        #expect(Self.describe(withGroups.events) == ["addGroup Friends", "addMemberToGroup", "deleteContact"])
        #expect(withGroups.events.map(\.author) == ["phone", "phone", "web"])
        #expect(withGroups.events[1].contactIdentifier == anna.identifier)
        #expect(withGroups.events[1].groupIdentifier == group.identifier)
        #expect(Self.describe(try await fetch(store, since: token).events) == ["deleteContact"])
        #expect(
            Self.describe(try await fetch(store, since: token, groups: true, excluding: ["phone"]).events)
                == ["deleteContact"])
        #expect(
            Self.describe(try await fetch(store, since: token, groups: true, excluding: ["web"]).events)
                == ["addGroup Friends", "addMemberToGroup"])
    }

    @Test("No usable token: drop everything, then every record", arguments: StoreKind.available)
    func fullSync(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let store = fixture.store
        let anna = Make.person("Anna", "Smith")
        let group = Group(name: "Friends")
        var request = SaveRequest()
        request.add(anna)
        request.add(Make.person("Bob", "Jones"))
        request.add(group)
        request.addMember(anna.identifier, toGroup: group.identifier)
        try await store.execute(request)
        let foreign = try await StoreFixture(kind).store.currentHistoryToken()
        let current = try #require(HistoryToken(encoded: try await store.currentHistoryToken()))
        let tokens: [(String?, DropEverythingReason)] = [
            (nil, .noToken), ("", .noToken), ("not a token", .malformedToken), (foreign, .otherStore),
            (HistoryToken(storeID: current.storeID, position: 999).encoded, .tokenAhead),
        ]
        for (token, reason) in tokens {
            let page = try await fetch(store, since: token)
            #expect(Self.describe(page.events) == ["dropEverything", "addContact Anna", "addContact Bob"])
            #expect(page.events.first?.dropReason == reason)
            let withGroups = try await fetch(store, since: token, groups: true)
            #expect(
                Self.describe(withGroups.events) == [
                    "dropEverything", "addContact Anna", "addContact Bob", "addGroup Friends", "addMemberToGroup",
                ])
            #expect(try await fetch(store, since: withGroups.token).events.isEmpty)
        }
    }

    @Test("Pages continue where the last one stopped, in full and incremental sync", arguments: StoreKind.available)
    func paging(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let contacts = (0..<25).map { Make.person("C\($0)", "Paged") }
        try await store.add(contacts)
        // A replica applies events: the same code for full and incremental sync.
        var replica: [String: String] = [:]
        var token: String?
        func sync() async throws {
            var page: ChangeHistoryPage
            repeat {
                page = try await fetch(store, since: token, limit: 4)
                #expect(page.events.count <= 4)
                for event in page.events {
                    switch event.kind {
                    case .dropEverything: replica = [:]
                    case .addContact, .updateContact: replica[event.contactIdentifier!] = event.contact!.givenName
                    case .deleteContact: replica[event.contactIdentifier!] = nil
                    default: break
                    }
                }
                token = page.token
            } while page.hasMore
        }
        try await sync()
        #expect(replica.count == 25)
        var request = SaveRequest()
        for contact in contacts.prefix(10) { request.delete(contactWithIdentifier: contact.identifier) }
        for contact in contacts.suffix(5) {
            var update = Contact(updating: contact.identifier)
            update.givenName = "Renamed"
            request.update(update)
        }
        try await store.execute(request)
        try await store.add((0..<7).map { Make.person("New\($0)", "Paged") })
        try await sync()
        let now = try await store.contacts(ContactFetchRequest(keysToFetch: [.givenName], page: .first(1000)))
        #expect(replica == Dictionary(uniqueKeysWithValues: now.contacts.map { ($0.identifier, $0.givenName) }))
    }

    @Test(
        "Compacted history: old tokens fall back to a full sync; the oldest valid token is reported",
        arguments: StoreKind.available)
    func retention(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let old = try await store.currentHistoryToken()
        try await store.add([Make.person("Anna", "Smith")])
        let middle = try await store.currentHistoryToken()
        #expect(try await store.oldestValidHistoryToken() == old)
        let deleted = try await store.compactHistory(olderThan: Date().addingTimeInterval(60))
        #expect(deleted == 1)
        #expect(try await store.oldestValidHistoryToken() == middle)
        let expired = try await fetch(store, since: old)
        #expect(Self.describe(expired.events) == ["dropEverything", "addContact Anna"])
        #expect(expired.events.first?.dropReason == .expiredToken)
        #expect(try await fetch(store, since: middle).events.isEmpty)
        try await store.add([Make.person("Bob", "Jones")])
        #expect(Self.describe(try await fetch(store, since: middle).events) == ["addContact Bob"])
    }

    @Test("Tokens survive a restart")
    func tokensSurviveRestart() async throws {
        let fixture = try await StoreFixture(.onDiskWAL)
        try await fixture.store.add([Make.person("Anna", "Smith")])
        let token = try await fixture.store.currentHistoryToken()
        try await fixture.store.add([Make.person("Bob", "Jones")])
        try await fixture.store.close()
        let reopened = try await fixture.reopen()
        #expect(Self.describe(try await fetch(reopened, since: token).events) == ["addContact Bob"])
        try await reopened.close()
    }
}
