import CarnetStore
import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStoreSQLite

/// Migration v10's name index of unified contacts (`LinkedNameIndex`), which unified name searches read.
@Suite("Linked name index migration")
struct LinkedNameIndexMigrationTests {
    @Test(
        "A store linked before v10 finds unified contacts through their other members, and keeps them current",
        arguments: StoreKind.sqlite)
    func linkedBeforeV10(_ kind: StoreKind) async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let home = Make.person("Anna", "Smith")
        let office = Make.person("Zelda", "Quill")
        let alone = Make.person("Zeno", "Alone")
        var request = SaveRequest(transactionAuthor: "t")
        request.add(home)
        request.add(office)
        request.add(alone)
        request.link(contactsWithIdentifiers: [home.identifier, office.identifier])
        let store = try EarlierStore(kind, at: "v9", directory: directory, request: request).open()
        let unified = try #require(try await store.linkGroups(containing: [home.identifier]).first)
        #expect(unified.preferredForName == home.identifier)

        func unifiedSearch(_ query: String, _ order: ContactSortOrder) async throws -> [String] {
            var search = ContactFetchRequest(
                predicate: .matchingName(query), keysToFetch: [.givenName], sortOrder: order, page: .first(10))
            search.unifyResults = true
            return try await store.contacts(search).contacts.map(\.identifier)
        }
        for order in [ContactSortOrder.givenName, .familyName] {
            // Only the other member is a "Zelda Quill"; it is found as the unified contact, where Anna stands.
            #expect(try await unifiedSearch("quill", order) == [unified.identifier], "\(order)")
            // By family name, "Alone" comes before "Smith".
            let both =
                order == .givenName ? [unified.identifier, alone.identifier] : [alone.identifier, unified.identifier]
            #expect(try await unifiedSearch("ze", order) == both, "\(order)")
            #expect(try await unifiedSearch("zelda smith", order) == [], "\(order): two members' words")
        }

        // A rename of the other member, then a preference change: the index follows both.
        var rename = SaveRequest(transactionAuthor: "t")
        var renamed = Contact(updating: office.identifier)
        renamed.familyName = "Pike"
        rename.update(renamed)
        try await store.execute(rename)
        #expect(try await unifiedSearch("quill", .familyName) == [])
        #expect(try await unifiedSearch("pike", .familyName) == [unified.identifier])
        var prefer = SaveRequest(transactionAuthor: "t")
        prefer.setPreferredForName(contactWithIdentifier: office.identifier)
        try await store.execute(prefer)
        #expect(try await unifiedSearch("smith", .familyName) == [unified.identifier])
        #expect(try await unifiedSearch("pike", .familyName) == [unified.identifier])
        #expect(try await unifiedSearch("ze", .givenName) == [unified.identifier, alone.identifier])
        // Unlinked, each stands for itself again and the other's names no longer find it.
        var unlink = SaveRequest(transactionAuthor: "t")
        unlink.unlink(contactWithIdentifier: office.identifier)
        try await store.execute(unlink)
        #expect(try await unifiedSearch("pike", .familyName) == [office.identifier])
        #expect(try await unifiedSearch("smith", .familyName) == [home.identifier])
        try await store.close()
    }
}
