import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// A contact's memberships end with it: deleted one by one, in a batch, or absorbed by a merge, its groups get a
/// new revision and an update in the history, which carries their member counts. Before, the row's cascade
/// dropped the membership with neither, and a replica keeping a group's revision and count from its events kept
/// stale ones (an outside tester's find).
@Suite("Memberships ending with their contact")
struct MembershipEndTests {
    enum Ending: CaseIterable { case delete, batchDelete, merge }

    @Test(
        "A deleted or absorbed member moves its groups' revisions, and the history updates them",
        arguments: StoreKind.available, Ending.allCases)
    func memberLeaves(kind: StoreKind, ending: Ending) async throws {
        let store = try await StoreFixture(kind).store
        let (kept, gone, other) = (Make.person("Kept", "A"), Make.person("Gone", "B"), Make.person("Other", "C"))
        let (friends, team, empty) = (Group(name: "Friends"), Group(name: "Team"), Group(name: "Empty"))
        var setup = SaveRequest()
        for contact in [kept, gone, other] { setup.add(contact) }
        for group in [friends, team, empty] { setup.add(group) }
        setup.addMember(kept.identifier, toGroup: friends.identifier)
        setup.addMember(gone.identifier, toGroup: friends.identifier)
        setup.addMember(gone.identifier, toGroup: team.identifier)
        setup.addMember(other.identifier, toGroup: team.identifier)
        try await store.execute(setup)
        let before = try await store.groups(withIdentifiers: [friends.identifier, team.identifier, empty.identifier])
        let token = try await store.currentHistoryToken()

        var request = SaveRequest(transactionAuthor: "cleaner")
        switch ending {
        case .delete: request.delete(contactWithIdentifier: gone.identifier)
        case .batchDelete:
            request.delete(contactWithIdentifier: gone.identifier)
            request.delete(contactWithIdentifier: other.identifier)
        case .merge: request.merge(contactsWithIdentifiers: [gone.identifier], into: kept.identifier)
        }
        let result = try await store.execute(request)
        // What a client that excludes its own author learns of the groups only from.
        #expect(Set(result.groupsLeftByDeletedContacts) == [friends.identifier, team.identifier])
        #expect(result.groupsLeftByDeletedContacts.count == 2)
        let after = try await store.groups(withIdentifiers: [friends.identifier, team.identifier, empty.identifier])
        let revision = try #require(result.revision)
        for (old, new) in zip(before, after) {
            #expect(new.revision == (old.identifier == empty.identifier ? old.revision : revision), "\(new.name)")
        }
        let counts = try await store.memberCounts(ofGroups: [friends.identifier, team.identifier])
        #expect(counts[friends.identifier] == 1)
        #expect(counts[team.identifier] == (ending == .delete ? 1 : ending == .merge ? 2 : 0))

        let page = try await store.changeHistory(
            ChangeHistoryFetchRequest(startingToken: token, includeGroupChanges: true, contactKeys: []))
        let updates = page.events.filter { $0.kind == .updateGroup }
        #expect(Set(updates.compactMap(\.groupIdentifier)) == [friends.identifier, team.identifier])
        #expect(updates.allSatisfy { $0.group?.revision == revision })
        #expect(page.events.contains { $0.kind == .deleteContact && $0.contactIdentifier == gone.identifier })
    }

    /// An outside tester's find: a member removed and then deleted before a pull left the page with the contact's
    /// delete only (its membership event is left out, and the delete ended no membership), so no event gave the
    /// group's new revision and member count.
    @Test("A removed member deleted before the pull: the page updates the group", arguments: StoreKind.available)
    func removedThenDeleted(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let (gone, kept) = (Make.person("Gone", "A"), Make.person("Kept", "B"))
        let team = Group(name: "Team")
        var setup = SaveRequest()
        setup.add(gone)
        setup.add(kept)
        setup.add(team)
        setup.addMember(gone.identifier, toGroup: team.identifier)
        setup.addMember(kept.identifier, toGroup: team.identifier)
        try await store.execute(setup)
        let token = try await store.currentHistoryToken()
        var remove = SaveRequest()
        remove.removeMember(gone.identifier, fromGroup: team.identifier)
        let removed = try await store.execute(remove)
        var delete = SaveRequest()
        delete.delete(contactWithIdentifier: gone.identifier)
        try await store.execute(delete)

        for unify in [false, true] {
            var request = ChangeHistoryFetchRequest(startingToken: token, includeGroupChanges: true)
            request.unifyResults = unify
            let events = try await store.changeHistory(request).events
            #expect(events.contains { $0.kind == .deleteContact && $0.contactIdentifier == gone.identifier })
            let stating = events.filter { $0.groupIdentifier == team.identifier && $0.group != nil }
            #expect(stating.count == 1, "unify \(unify): \(events.map(\.kind))")
            #expect(stating.first?.group?.revision == removed.revision, "unify \(unify)")
        }
    }
}
