import CarnetStoreTestSupport
import Testing

@testable import CarnetStore

/// The interleavings that once left replicas different from the store, each as it was reported.
@Suite("Sync scenarios")
struct SyncScenarioTests {
    @Test("A paged full sync sees a record added meanwhile, and then its delete", arguments: StoreKind.available)
    func pagedFullSyncGhost(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let c1 = Make.person("C1", "A")
        let c2 = Make.person("C2", "B")
        try await store.add([c1, c2], author: "setup")
        var replica = SyncReplica(groupChanges: false)
        #expect(try await replica.pull(store, limit: 2))
        #expect(replica.contacts.keys.sorted() == [c1.identifier])
        let c3 = Make.person("C3", "C")
        try await store.add([c3], author: "other")
        try await replica.sync(store, limit: 2)
        #expect(replica.contacts[c3.identifier] == "C3")
        var delete = SaveRequest(transactionAuthor: "other")
        delete.delete(contactWithIdentifier: c3.identifier)
        try await store.execute(delete)
        try await replica.sync(store, limit: 2)
        #expect(replica.state == (try await StoreState.read(store, groupChanges: false)))
    }

    @Test(
        "A paged full sync sees a group and a membership added meanwhile, and then their removal",
        arguments: StoreKind.available)
    func pagedFullSyncGroups(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let c1 = Make.person("C1", "A")
        let c2 = Make.person("C2", "B")
        let g1 = Group(name: "G1")
        var setup = SaveRequest(transactionAuthor: "setup")
        setup.add(c1)
        setup.add(c2)
        setup.add(g1)
        try await store.execute(setup)
        var replica = SyncReplica()
        #expect(try await replica.pull(store, limit: 2))
        let g2 = Group(name: "G2")
        var more = SaveRequest(transactionAuthor: "other")
        more.add(g2)
        more.addMember(c2.identifier, toGroup: g1.identifier)
        try await store.execute(more)
        try await replica.sync(store, limit: 2)
        #expect(replica.groups[g2.identifier] == "G2")
        #expect(replica.members.contains([g1.identifier, c2.identifier]))
        var undo = SaveRequest(transactionAuthor: "other")
        undo.removeMember(c2.identifier, fromGroup: g1.identifier)
        undo.delete(groupWithIdentifier: g2.identifier)
        try await store.execute(undo)
        try await replica.sync(store, limit: 2)
        #expect(replica.state == (try await StoreState.read(store)))
    }

    @Test("A membership event is not replayed past the client's own later change", arguments: [true, false])
    func membershipReplay(removeLast: Bool) async throws {
        let store = try await StoreFixture(.inMemory).store
        let c1 = Make.person("C1", "A")
        let g1 = Group(name: "G1")
        var setup = SaveRequest(transactionAuthor: "setup")
        setup.add(c1)
        setup.add(g1)
        if !removeLast { setup.addMember(c1.identifier, toGroup: g1.identifier) }
        try await store.execute(setup)
        var appA = SyncReplica(author: "app-a", excludeOwn: true)
        try await appA.sync(store)
        // app-b changes the membership one way, then app-a the other way, applying its own save at once.
        var byB = SaveRequest(transactionAuthor: "app-b")
        var byA = SaveRequest(transactionAuthor: "app-a")
        if removeLast {
            byB.addMember(c1.identifier, toGroup: g1.identifier)
            byA.removeMember(c1.identifier, fromGroup: g1.identifier)
        } else {
            byB.removeMember(c1.identifier, fromGroup: g1.identifier)
            byA.addMember(c1.identifier, toGroup: g1.identifier)
        }
        try await store.execute(byB)
        try await appA.save(byA, to: store)
        try await appA.sync(store)
        #expect(appA.state == (try await StoreState.read(store)))
        #expect(appA.members.contains([g1.identifier, c1.identifier]) == !removeLast)
    }

    @Test("A client that learned a record from its own save hears of its delete", arguments: StoreKind.available)
    func ownSaveThenForeignDelete(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        var app = SyncReplica(author: "app", excludeOwn: false)
        try await app.sync(store)
        var add = SaveRequest(transactionAuthor: "app")
        let contact = Make.person("Shown", "At once")
        add.add(contact)
        try await store.execute(add)
        app.contacts[contact.identifier] = "Shown"  // from the save's result, before any pull
        var delete = SaveRequest(transactionAuthor: "other")
        delete.delete(contactWithIdentifier: contact.identifier)
        try await store.execute(delete)
        try await app.sync(store)
        #expect(app.contacts.isEmpty)
        #expect(app.state == (try await StoreState.read(store)))
    }

    @Test("Deleting a contact or a group ends its memberships; a replica applying the rule converges")
    func deleteImpliesMemberships() async throws {
        let store = try await StoreFixture(.inMemory).store
        let c1 = Make.person("C1", "A")
        let c2 = Make.person("C2", "B")
        let g1 = Group(name: "G1")
        let g2 = Group(name: "G2")
        var setup = SaveRequest(transactionAuthor: "setup")
        for contact in [c1, c2] { setup.add(contact) }
        for group in [g1, g2] { setup.add(group) }
        for (contact, group) in [(c1, g1), (c2, g1), (c1, g2)] {
            setup.addMember(contact.identifier, toGroup: group.identifier)
        }
        try await store.execute(setup)
        var replica = SyncReplica()
        try await replica.sync(store)
        #expect(replica.members.count == 3)
        var delete = SaveRequest(transactionAuthor: "other")
        delete.delete(contactWithIdentifier: c1.identifier)
        delete.delete(groupWithIdentifier: g2.identifier)
        try await store.execute(delete)
        let page = try await store.changeHistory(
            ChangeHistoryFetchRequest(startingToken: replica.token, includeGroupChanges: true))
        // G1 lost C1: its update carries its new revision and member count.
        #expect(page.events.map(\.kind) == [.deleteContact, .updateGroup, .deleteGroup])
        try await replica.sync(store)
        #expect(replica.state == (try await StoreState.read(store)))
        #expect(replica.members == [[g1.identifier, c2.identifier]])
    }
}
