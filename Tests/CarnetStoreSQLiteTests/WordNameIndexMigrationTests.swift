import CarnetStore
import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStoreSQLite

/// Migration v13: the name tables index the words both backends search by (``NameIndex/indexedText(_:)``), where
/// `unicode61` split them at letters' marks and joiners.
@Suite("Migration v13: name index of words")
struct WordNameIndexMigrationTests {
    @Test(
        "A store made before v13 finds names by their words, unified contacts through other members too, and stays current",
        arguments: StoreKind.sqlite)
    func wordsAfterV13(_ kind: StoreKind) async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let book = Make.person("किताब", "Zed")
        let joined = Make.person("A\u{200D}B", "Zed")
        let circled = Make.person("ⓐⓑ", "Zed")
        let home = Make.person("Anna", "Smith")
        let office = Make.person("प्रिया", "Quill")
        var request = SaveRequest(transactionAuthor: "t")
        for contact in [book, joined, circled, home, office] { request.add(contact) }
        request.link(contactsWithIdentifiers: [home.identifier, office.identifier])
        let store = try EarlierStore(kind, at: "v12", directory: directory, request: request).open()
        let unified = try #require(try await store.linkGroups(containing: [home.identifier]).first).identifier

        func search(_ query: String, unify: Bool = false) async throws -> [String] {
            var search = ContactFetchRequest(
                predicate: .matchingName(query), keysToFetch: [], sortOrder: .givenName, page: .first(10))
            search.unifyResults = unify
            return try await store.contacts(search).contacts.map(\.identifier)
        }
        #expect(try await search("कि") == [book.identifier])
        #expect(try await search("ता") == [], "inside a word, after a vowel sign")
        #expect(try await search("b") == [], "after a joiner")
        #expect(try await search("a\u{200D}b") == [joined.identifier])
        #expect(try await search("ⓐ") == [circled.identifier])
        #expect(try await search("र") == [], "after a virama")
        #expect(try await search("प्रि", unify: true) == [unified], "through the other member")
        #expect(try await search("quill", unify: true) == [unified])

        // Rows written before v13 were replaced whole: a delete and a rename leave nothing behind.
        var changes = SaveRequest(transactionAuthor: "t")
        changes.delete(contactWithIdentifier: book.identifier)
        var renamed = Contact(updating: office.identifier)
        renamed.givenName = "राहुल"
        changes.update(renamed)
        try await store.execute(changes)
        #expect(try await search("कि") == [])
        #expect(try await search("प्रि", unify: true) == [])
        #expect(try await search("राहु", unify: true) == [unified])
        #expect(try await search("zed") == [joined.identifier, circled.identifier])
        try await store.close()
    }
}
