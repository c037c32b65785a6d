import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// Whose name a coalesced event carries, on every backend. An outside tester's find: author B added a group and
/// put a contact in it, author A deleted the contact; the page said A added the group (B did, when A was
/// excluded), and that B removed the membership, which A's delete ended.
@Suite("Authors of coalesced history events")
struct CoalescedAuthorTests {
    @Test(
        "An added group is its adder's; a membership a delete ended is the deleter's",
        arguments: StoreKind.available, [false, true])
    func authors(kind: StoreKind, excludesDeleter: Bool) async throws {
        let store = try await StoreFixture(kind).store
        let member = Make.person("Member", "M")
        var first = SaveRequest(transactionAuthor: "a")
        first.add(member)
        try await store.execute(first)
        let token = try await store.currentHistoryToken()
        let group = Group(name: "Team")
        var second = SaveRequest(transactionAuthor: "b")
        second.add(group)
        second.addMember(member.identifier, toGroup: group.identifier)
        try await store.execute(second)
        var third = SaveRequest(transactionAuthor: "a")
        third.delete(contactWithIdentifier: member.identifier)
        try await store.execute(third)

        // As a unified page reads it, which keeps memberships of contacts it did not load.
        var request = ChangeHistoryFetchRequest(
            startingToken: token, includeGroupChanges: true, excludedAuthors: excludesDeleter ? ["a"] : [],
            contactKeys: [])
        request.keepsUnknownMemberships = true
        let events = try await store.changeHistory(request).events
        let added = events.filter { $0.kind == .addGroup }
        #expect(added.map(\.author) == ["b"])
        let membership = events.filter { $0.kind == .addMemberToGroup || $0.kind == .removeMemberFromGroup }
        #expect(membership.map(\.kind) == [.removeMemberFromGroup])
        // Without the deleter's events, the page does not hold the save that ended the membership.
        #expect(membership.map(\.author) == [excludesDeleter ? nil : "a"])

        // As a plain page reads it: the membership of a deleted contact is left out, the group stated once.
        let plain = try await store.changeHistory(
            ChangeHistoryFetchRequest(startingToken: token, includeGroupChanges: true, contactKeys: []))
        #expect(plain.events.filter { $0.kind == .addGroup }.map(\.author) == ["b"])
        #expect(plain.events.filter { $0.kind == .deleteContact }.map(\.author) == ["a"])
    }
}
