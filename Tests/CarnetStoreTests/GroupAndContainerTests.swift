import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

@Suite("Groups and containers")
struct GroupAndContainerTests {
    @Test("Group and container queries", arguments: StoreKind.available)
    func queries(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let local = try await store.defaultContainer()
        #expect(local.isDefault && local.type == .local)
        let work = try await store.addContainer(Container(name: "Work", type: .exchange))
        let friends = Group(name: "Friends")
        let family = Group(name: "Family")
        let team = Group(name: "Team")
        let anna = Make.person("Anna", "Smith")
        let bob = Make.person("Bob", "Adams")
        let carl = Make.person("Carl", "Zed")
        var request = SaveRequest()
        request.add(friends)
        request.add(family)
        request.add(team, toContainerWithIdentifier: work.identifier)
        request.add(anna)
        request.add(bob)
        request.add(carl, toContainerWithIdentifier: work.identifier)
        request.addMember(anna.identifier, toGroup: friends.identifier)
        request.addMember(bob.identifier, toGroup: friends.identifier)
        request.addMember(anna.identifier, toGroup: family.identifier)
        request.addMember(carl.identifier, toGroup: team.identifier)
        try await store.execute(request)

        #expect(try await store.groups().map(\.name) == ["Family", "Friends", "Team"])
        #expect(try await store.groups(inContainer: work.identifier).map(\.name) == ["Team"])
        #expect(try await store.groupCount() == 3)
        #expect(try await store.groupCount(inContainer: local.identifier) == 2)
        #expect(try await store.containers().map(\.name) == ["Local", "Work"])
        #expect(try await store.container(ofContact: carl.identifier).identifier == work.identifier)
        #expect(try await store.container(ofGroup: friends.identifier).identifier == local.identifier)
        #expect(
            try await store.groups(ofContacts: [anna.identifier, carl.identifier]).mapValues { $0.map(\.name) }
                == [anna.identifier: ["Family", "Friends"], carl.identifier: ["Team"]])
        let members = try await store.members(
            ofGroups: [friends.identifier, team.identifier], keysToFetch: [.familyName],
            sortOrder: .familyName)
        #expect(members[friends.identifier]?.map(\.familyName) == ["Adams", "Smith"])
        #expect(members[team.identifier]?.map(\.familyName) == ["Zed"])
        let sorted = try await store.contacts(
            ContactFetchRequest(
                predicate: .inGroup(friends.identifier),
                keysToFetch: [.givenName], sortOrder: .givenName))
        #expect(sorted.contacts.map(\.givenName) == ["Anna", "Bob"])
        await #expect(throws: StoreError.self) { try await store.container(ofContact: "missing") }
    }
}
