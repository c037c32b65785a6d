import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// A save that states names its containers must not bear (what concurrent vCard imports of group cards rely on):
/// checked in the save's transaction, byte for byte, per container.
@Suite("Group names a save requires absent")
struct GroupNameAbsenceTests {
    @Test("A name a group of the container bears refuses the whole save", arguments: StoreKind.available)
    func refused(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        var first = SaveRequest(transactionAuthor: "a")
        first.add(Group(name: "Team"))
        first.absentGroupNames = [GroupNameAbsence(containerIdentifier: nil, name: "Team")]
        try await store.execute(first)
        let before = try await store.currentHistoryToken()
        var second = SaveRequest(transactionAuthor: "b")
        second.add(Make.person("Anna", "Smith"))
        second.add(Group(name: "Team"))
        second.absentGroupNames = [
            GroupNameAbsence(containerIdentifier: nil, name: "Other"),
            GroupNameAbsence(containerIdentifier: nil, name: "Team"),
        ]
        do {
            try await store.execute(atomically: [SaveRequest(transactionAuthor: "b"), second])
            Issue.record("the save should be refused")
        } catch let error as StoreError {
            #expect(GroupNameAbsence.refused(error), "\(error)")
            #expect(error.affectedRecordIdentifiers == [try await store.defaultContainer().identifier])
        }
        #expect(try await store.contactCount() == 0)
        #expect(try await store.groups().map(\.name) == ["Team"])
        #expect(try await store.currentHistoryToken() == before)
    }

    @Test(
        "Another spelling of the name, another container's group or a group of the same save do not refuse it",
        arguments: StoreKind.available)
    func accepted(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let work = try await store.addContainer(Container(name: "Work", type: .exchange))
        var setup = SaveRequest(transactionAuthor: "a")
        setup.add(Group(name: "Jose\u{301}"))
        setup.add(Group(name: "Team"), toContainerWithIdentifier: work.identifier)
        try await store.execute(setup)
        var save = SaveRequest(transactionAuthor: "b")
        save.add(Group(name: "José"))
        save.add(Group(name: "Team"))
        save.absentGroupNames = [
            GroupNameAbsence(containerIdentifier: nil, name: "José"),
            GroupNameAbsence(containerIdentifier: nil, name: "Team"),
        ]
        try await store.execute(save)
        let defaultContainer = try await store.defaultContainer().identifier
        #expect(try await store.groups(inContainer: defaultContainer).count == 3)
        var elsewhere = SaveRequest(transactionAuthor: "c")
        elsewhere.add(Group(name: "José"), toContainerWithIdentifier: work.identifier)
        elsewhere.absentGroupNames = [GroupNameAbsence(containerIdentifier: work.identifier, name: "José")]
        try await store.execute(elsewhere)
        var again = SaveRequest(transactionAuthor: "c")
        again.add(Group(name: "José"), toContainerWithIdentifier: work.identifier)
        again.absentGroupNames = [GroupNameAbsence(containerIdentifier: work.identifier, name: "José")]
        let error = await #expect(throws: StoreError.self) { try await store.execute(again) }
        #expect(error.map(GroupNameAbsence.refused) == true, "\(String(describing: error))")
    }
}
