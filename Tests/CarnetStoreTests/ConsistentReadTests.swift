import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// `withConsistentReads` on each backend with snapshots (not the in-memory SQLite store, one serial queue).
@Suite("Consistent reads")
struct ConsistentReadTests {
    static let kinds = StoreKind.available.filter { $0 != .inMemory }

    /// What the test reads of the book, by every kind of read a backend has (point reads, statements, the
    /// unbounded reads that suspend).
    struct Seen: Equatable {
        var contacts: Int
        var identifiers: Set<String>
        var memberCount: Int
        var members: Int
        var token: String
        var fullSyncEvents: Int

        init(_ store: any ContactStore, group: String) async throws {
            contacts = try await store.contactCount()
            identifiers = Set(try await store.contactIdentifiers(matching: .all, limit: 100))
            memberCount = try await store.memberCounts(ofGroups: [group])[group] ?? 0
            members = try await store.members(ofGroups: [group], keysToFetch: [.givenName])[group]?.count ?? 0
            token = try await store.currentHistoryToken()
            fullSyncEvents = try await store.changeHistory(ChangeHistoryFetchRequest(includeGroupChanges: true))
                .events.count
        }
    }

    @Test(
        "Reads inside see the book as at the first of them while saves commit; reads outside see the saves",
        arguments: kinds)
    func oneState(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let store = fixture.store
        let friends = Group(name: "Friends")
        let anna = Make.person("Anna", "Smith")
        var request = SaveRequest()
        request.add(friends)
        request.add(anna)
        request.addMember(anna.identifier, toGroup: friends.identifier)
        try await store.execute(request)
        // Another client's save: from a task of its own, outside the snapshot.
        @Sendable func saveElsewhere(_ name: String) async throws {
            try await Task.detached {
                var request = SaveRequest()
                let person = Make.person(name, "Adams")
                request.add(person)
                request.addMember(person.identifier, toGroup: friends.identifier)
                try await store.execute(request)
            }.value
        }
        let (first, later, outside) = try await store.withConsistentReads {
            let first = try await Seen(store, group: friends.identifier)
            try await saveElsewhere("Bob")
            let later = try await Seen(store, group: friends.identifier)
            try await saveElsewhere("Carl")
            let outside = try await Task.detached { try await Seen(store, group: friends.identifier) }.value
            return (first, later, outside)
        }
        #expect(first.contacts == 1 && first.memberCount == 1 && first.members == 1 && first.identifiers.count == 1)
        #expect(later == first)
        #expect(outside.contacts == 3 && outside.memberCount == 3 && outside.members == 3)
        #expect(outside.token != first.token)
        let after = try await Seen(store, group: friends.identifier)
        #expect(after == outside)
    }

    static func adding(_ contact: Contact) -> SaveRequest {
        var request = SaveRequest()
        request.add(contact)
        return request
    }

    @Test("Nested calls share the outer state, and a snapshot's end leaves later reads current", arguments: kinds)
    func nested(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let store = fixture.store
        try await store.execute(Self.adding(Make.person("Anna", "Smith")))
        let counts = try await store.withConsistentReads {
            let outer = try await store.contactCount()
            try await Task.detached { try await store.execute(Self.adding(Make.person("Bob", "Adams"))) }.value
            let inner = try await store.withConsistentReads { try await store.contactCount() }
            return [outer, inner]
        }
        #expect(counts == [1, 1])
        #expect(try await store.contactCount() == 2)
    }
}
