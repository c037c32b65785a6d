import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// `addMembersOfGroup` with a `deleteGroup` of its source: one group merged into another in one transaction, the
/// members read inside it (how concurrent vCard imports merge the groups of one name that each made).
@Suite("Merging a group into another")
struct GroupMergeOperationTests {
    @Test(
        "Every member the source has moves, with an event each; members already there are left as they are",
        arguments: StoreKind.available)
    func merge(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let (source, target) = (Group(name: "Team"), Group(name: "Team"))
        let (anna, bob, carl) = (Make.person("Anna", "Smith"), Make.person("Bob", "Adams"), Make.person("Carl", "Zed"))
        var setup = SaveRequest()
        setup.add(source)
        setup.add(target)
        for person in [anna, bob, carl] { setup.add(person) }
        setup.addMember(anna.identifier, toGroup: source.identifier)
        setup.addMember(bob.identifier, toGroup: source.identifier)
        setup.addMember(bob.identifier, toGroup: target.identifier)
        setup.addMember(carl.identifier, toGroup: target.identifier)
        try await store.execute(setup)
        let token = try await store.currentHistoryToken()

        try await store.execute(
            SaveRequest(
                transactionAuthor: "merger",
                operations: [
                    .addMembersOfGroup(source: source.identifier, groupIdentifier: target.identifier),
                    .deleteGroup(identifier: source.identifier),
                ]))
        #expect(try await store.groups().map(\.identifier) == [target.identifier])
        let members = try await store.members(ofGroups: [target.identifier], keysToFetch: [.givenName])
        #expect(Set(members[target.identifier]?.map(\.givenName) ?? []) == ["Anna", "Bob", "Carl"])
        let page = try await store.changeHistory(
            ChangeHistoryFetchRequest(startingToken: token, includeGroupChanges: true, contactKeys: [.givenName]))
        let events = page.events.map { "\($0.kind) \($0.contactIdentifier ?? "") \($0.groupIdentifier ?? "")" }
        #expect(
            Set(events) == [
                "addMemberToGroup \(anna.identifier) \(target.identifier)", "deleteGroup  \(source.identifier)",
            ], "\(events)")
    }

    @Test(
        "A missing source or one of another container is refused, and nothing is written",
        arguments: StoreKind.available)
    func refusals(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let work = try await store.addContainer(Container(name: "Work", type: .exchange))
        let (local, elsewhere, gone) = (Group(name: "Team"), Group(name: "Team"), Group(name: "Gone"))
        let anna = Make.person("Anna", "Smith")
        var setup = SaveRequest()
        setup.add(local)
        setup.add(gone)
        setup.add(elsewhere, toContainerWithIdentifier: work.identifier)
        setup.add(anna)
        setup.addMember(anna.identifier, toGroup: local.identifier)
        try await store.execute(setup)
        try await store.execute(SaveRequest(operations: [.deleteGroup(identifier: gone.identifier)]))
        let token = try await store.currentHistoryToken()

        let missing = await #expect(throws: StoreError.self) {
            try await store.execute(
                SaveRequest(operations: [
                    .addMembersOfGroup(source: gone.identifier, groupIdentifier: local.identifier)
                ]))
        }
        #expect(missing?.code == .recordDoesNotExist)
        #expect(missing?.affectedRecordIdentifiers == [gone.identifier])
        let scope = await #expect(throws: StoreError.self) {
            try await store.execute(
                SaveRequest(operations: [
                    .addMembersOfGroup(source: local.identifier, groupIdentifier: elsewhere.identifier),
                    .deleteGroup(identifier: local.identifier),
                ]))
        }
        #expect(scope?.code == .containmentScope)
        #expect(try await store.currentHistoryToken() == token)
        let members = try await store.members(ofGroups: [local.identifier], keysToFetch: [])
        #expect(members[local.identifier]?.map(\.identifier) == [anna.identifier])
    }
}
