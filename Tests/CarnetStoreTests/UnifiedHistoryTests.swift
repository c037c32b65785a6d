import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

@Suite("Change history of unified contacts")
struct UnifiedHistoryTests {
    /// A replica that follows the history loop, keeping each record's given name.
    struct Replica {
        var token: String?
        var contacts: [String: String] = [:]
        /// (group, contact) pairs, when it asks for group changes.
        var members: Set<[String]> = []
        let unify: Bool
        var groups = false
        var limit = 3
        /// The most events any page held.
        var largestPage = 0

        mutating func pull(_ store: any ContactStore) async throws {
            var more = true
            while more {
                var request = ChangeHistoryFetchRequest(
                    startingToken: token, includeGroupChanges: groups, contactKeys: [.givenName], limit: limit)
                request.unifyResults = unify
                let page = try await store.changeHistory(request)
                largestPage = max(largestPage, page.events.count)
                for event in page.events {
                    switch event.kind {
                    case .dropEverything:
                        contacts = [:]
                        members = []
                    case .addContact, .updateContact:
                        if let contact = event.contact { contacts[contact.identifier] = contact.givenName }
                    case .deleteContact:
                        contacts[event.contactIdentifier ?? ""] = nil
                        members = members.filter { $0[1] != event.contactIdentifier }
                    case .addMemberToGroup:
                        members.insert([event.groupIdentifier ?? "", event.contactIdentifier ?? ""])
                    case .removeMemberFromGroup:
                        members.remove([event.groupIdentifier ?? "", event.contactIdentifier ?? ""])
                    default: continue
                    }
                }
                token = page.token
                more = page.hasMore
            }
        }
    }

    /// The records a fetch returns, with unification on or off.
    func state(_ store: any ContactStore, unify: Bool) async throws -> [String: String] {
        var request = ContactFetchRequest(keysToFetch: [.givenName], page: .first(1000))
        request.unifyResults = unify
        let page = try await store.contacts(request)
        return Dictionary(uniqueKeysWithValues: page.contacts.map { ($0.identifier, $0.givenName) })
    }

    func save(_ store: any ContactStore, _ body: (inout SaveRequest) -> Void) async throws -> SaveResult {
        var request = SaveRequest(transactionAuthor: "app")
        body(&request)
        return try await store.execute(request)
    }

    @Test(
        "Replicas of unified and of individual contacts both converge through links, edits, unlinks and deletes",
        arguments: StoreKind.available)
    func converge(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        var unified = Replica(unify: true)
        var individual = Replica(unify: false)
        func check(_ step: String) async throws {
            try await unified.pull(store)
            try await individual.pull(store)
            #expect(unified.contacts == (try await state(store, unify: true)), "unified after \(step)")
            #expect(individual.contacts == (try await state(store, unify: false)), "individual after \(step)")
        }
        let a = Make.person("Ada", "One")
        let b = Make.person("Bea", "Two")
        let c = Make.person("Cy", "Three")
        let d = Make.person("Di", "Four")
        try await store.add([a, b, c, d])
        try await check("adds")

        let first = try await save(store) { $0.link(contactsWithIdentifiers: [a.identifier, b.identifier]) }
        let ab = try #require(first.recordIdentifiers.first)
        try await check("link a b")
        #expect(unified.contacts[ab] == "Ada" && unified.contacts[a.identifier] == nil)

        var rename = Contact(updating: b.identifier)
        rename.givenName = "Beatrice"
        _ = try await save(store) { $0.update(rename) }
        _ = try await save(store) { $0.setPreferredForName(contactWithIdentifier: b.identifier) }
        try await check("rename and prefer b")
        #expect(unified.contacts[ab] == "Beatrice")

        // A link that absorbs another unified contact ends its identifier.
        let second = try await save(store) { $0.link(contactsWithIdentifiers: [c.identifier, d.identifier]) }
        let cd = try #require(second.recordIdentifiers.first)
        try await check("link c d")
        _ = try await save(store) { $0.link(contactsWithIdentifiers: [ab, cd]) }
        try await check("link ab cd")
        #expect(unified.contacts.keys.sorted() == [ab])

        _ = try await save(store) { $0.unlink(contactWithIdentifier: c.identifier) }
        try await check("unlink c")
        _ = try await save(store) { $0.delete(contactWithIdentifier: d.identifier) }
        try await check("delete d")
        _ = try await save(store) { $0.delete(contactWithIdentifier: a.identifier) }
        try await check("delete a: the pair ends")
        #expect(unified.contacts.keys.sorted() == [b.identifier, c.identifier].sorted())

        // A replica starting now (full sync) sees the same.
        var fresh = Replica(unify: true)
        try await fresh.pull(store)
        #expect(fresh.contacts == unified.contacts)
    }

    @Test(
        "A unified page holds at most its limit of events, though a linked contact's change is two",
        arguments: StoreKind.available)
    func pageLimit(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let people = (0..<6).map { Make.person("P\($0)", "Linked") }
        try await store.add(people)
        var replicas = [1, 2, 3, 7].map { limit in
            var replica = Replica(unify: true)
            replica.limit = limit
            return replica
        }
        for index in replicas.indices { try await replicas[index].pull(store) }
        _ = try await save(store) { $0.link(contactsWithIdentifiers: people.map(\.identifier)) }
        let expected = try await state(store, unify: true)
        for limit in [1, 2, 3, 7] {
            // A full sync, and the replicas that held the six before the link.
            var fresh = Replica(unify: true)
            fresh.limit = limit
            try await fresh.pull(store)
            #expect(fresh.contacts == expected, "full sync, limit \(limit)")
            #expect(fresh.largestPage <= (limit == 1 ? 2 : limit), "full sync, limit \(limit)")
        }
        for index in replicas.indices {
            replicas[index].largestPage = 0
            try await replicas[index].pull(store)
            let limit = replicas[index].limit
            #expect(replicas[index].contacts == expected, "incremental, limit \(limit)")
            // A limit of 1 gives a linked contact's delete with its unified contact's event, as one token covers.
            #expect(replicas[index].largestPage <= (limit == 1 ? 2 : limit), "incremental, limit \(limit)")
        }
    }

    /// The memberships a replica should hold: the group's individual members, or with unification each linked one
    /// replaced by its unified contact.
    func memberships(_ store: any ContactStore, groups: [String], unify: Bool) async throws -> Set<[String]> {
        var pairs = Set<[String]>()
        for (group, members) in try await store.members(ofGroups: groups, keysToFetch: [], sortOrder: .none) {
            let links = unify ? try await store.linkGroups(containing: members.map(\.identifier)) : []
            for member in members {
                let unified = links.first { $0.members.contains(member.identifier) }?.identifier
                pairs.insert([group, unified ?? member.identifier])
            }
        }
        return pairs
    }

    @Test(
        "Memberships follow links: a unified contact is in its members' groups, a contact taken out in its own",
        arguments: StoreKind.available)
    func memberships(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        var unified = Replica(unify: true, groups: true)
        var individual = Replica(unify: false, groups: true)
        let (a, b, c) = (Make.person("Ada", "One"), Make.person("Bea", "Two"), Make.person("Cy", "Three"))
        try await store.add([a, b, c])
        let (g, h) = (Group(name: "Family"), Group(name: "Work"))
        _ = try await save(store) { request in
            request.add(g)
            request.add(h)
            request.addMember(a.identifier, toGroup: g.identifier)
            request.addMember(c.identifier, toGroup: h.identifier)
        }
        func check(_ step: String) async throws {
            try await unified.pull(store)
            try await individual.pull(store)
            let groups = [g.identifier, h.identifier]
            #expect(
                unified.members == (try await memberships(store, groups: groups, unify: true)), "unified after \(step)")
            #expect(
                individual.members == (try await memberships(store, groups: groups, unify: false)),
                "individual after \(step)")
        }
        try await check("adds")
        let linked = try await save(store) {
            $0.link(contactsWithIdentifiers: [a.identifier, b.identifier, c.identifier])
        }
        let abc = try #require(linked.recordIdentifiers.first)
        try await check("link a b c")
        #expect(unified.members == [[g.identifier, abc], [h.identifier, abc]])
        _ = try await save(store) { $0.unlink(contactWithIdentifier: c.identifier) }
        try await check("unlink c: the unified contact leaves c's group")
        #expect(unified.members == [[g.identifier, abc], [h.identifier, c.identifier]])
        _ = try await save(store) { $0.delete(contactWithIdentifier: a.identifier) }
        try await check("delete a: the pair ends")
        #expect(unified.members == [[h.identifier, c.identifier]])
    }

    @Test(
        "A member that leaves a group and then its unified contact takes the unified contact out of the group",
        arguments: StoreKind.available)
    func memberLeavesGroupThenLink(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        for leave in ["delete", "unlink"] {
            for together in [true, false] {
                var unified = Replica(unify: true, groups: true)
                let (a, b, c) = (Make.person("Ada", "One"), Make.person("Bea", "Two"), Make.person("Cy", "Three"))
                try await store.add([a, b, c])
                let g = Group(name: "Family \(leave) \(together)")
                _ = try await save(store) { request in
                    request.add(g)
                    request.addMember(a.identifier, toGroup: g.identifier)
                    request.link(contactsWithIdentifiers: [a.identifier, b.identifier, c.identifier])
                }
                try await unified.pull(store)
                func leaveLink(_ request: inout SaveRequest) {
                    if leave == "delete" {
                        request.delete(contactWithIdentifier: a.identifier)
                    } else {
                        request.unlink(contactWithIdentifier: a.identifier)
                    }
                }
                // At the page's read time the member is no longer linked: its removal alone no longer names the
                // unified contact, which must leave the group all the same.
                if together {
                    _ = try await save(store) { request in
                        request.removeMember(a.identifier, fromGroup: g.identifier)
                        leaveLink(&request)
                    }
                } else {
                    _ = try await save(store) { $0.removeMember(a.identifier, fromGroup: g.identifier) }
                    _ = try await save(store) { leaveLink(&$0) }
                }
                try await unified.pull(store)
                let expected = try await memberships(store, groups: [g.identifier], unify: true)
                #expect(
                    unified.members.filter { $0[0] == g.identifier } == expected,
                    "\(leave), in one save: \(together)")
            }
        }
    }
}
