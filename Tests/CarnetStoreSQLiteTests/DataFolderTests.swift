import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore
@testable import CarnetStoreSQLite

/// The data folder: upgrade of a single-book folder in place, and the pool of open books.
@Suite("Data folder and open books")
struct DataFolderTests {
    @Test("A folder of the single-store layout becomes the admin's default book, tokens and history tokens intact")
    func upgradeInPlace() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let legacy = try SQLiteStore.open(path: directory.appendingPathComponent("carnet.sqlite").path)
        var save = SaveRequest(transactionAuthor: "before")
        var contact = Contact()
        contact.givenName = "Ada"
        save.add(contact)
        try await legacy.execute(save)
        let id = contact.identifier
        let token = try await legacy.currentHistoryToken()
        let record = AccessTokenRecord(
            id: "old", name: "admin", secretHash: [7], scopes: ["read", "write"], authors: [])
        try await legacy.insertAccessToken(record)
        try await legacy.close()

        let folder = try await DataFolder.open(directory: directory.path)
        let admin = try await folder.admin()
        let (adopted, owner) = try #require(try await folder.sqliteCatalog.accessToken(id: "old"))
        #expect(adopted.secretHash == [7] && owner.id == admin.id)
        let adminBook = try #require(admin.defaultBookID)
        let book = try #require(try await folder.sqliteCatalog.book(id: adminBook))
        #expect(folder.bookStores.path(of: book) == directory.appendingPathComponent("carnet.sqlite").path)
        try await folder.bookStores.withStore(book) { store in
            #expect(
                try await store.contacts(withIdentifiers: [id], keysToFetch: [.givenName]).first?
                    .givenName == "Ada")
            let page = try await store.changeHistory(ChangeHistoryFetchRequest(startingToken: token))
            #expect(page.events.isEmpty && page.events.first?.kind != .dropEverything)
        }
        try await folder.close()
        // A second open changes nothing.
        let again = try await DataFolder.open(directory: directory.path)
        #expect(try await again.catalog.principals().count == 1)
        #expect(try await again.catalog.accessTokens().count == 1)
        try await again.close()
    }

    @Test("Books are isolated: a record or history token of one book means nothing in another")
    func isolation() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try await DataFolder.open(directory: directory.path)
        let alice = try await folder.sqliteCatalog.createPrincipal(name: "alice")
        let aliceBook = try #require(alice.defaultBookID)
        let first = try #require(try await folder.sqliteCatalog.book(id: aliceBook))
        let second = try await folder.sqliteCatalog.createBook(name: "Other", ownerID: alice.id)
        var contact = Contact()
        contact.givenName = "Only here"
        let saved = contact
        let token = try await folder.bookStores.withStore(first) { store in
            var request = SaveRequest(transactionAuthor: "t")
            request.add(saved)
            return try await store.execute(request).historyToken
        }
        try await folder.bookStores.withStore(second) { store in
            #expect(try await store.contacts(withIdentifiers: [saved.identifier], keysToFetch: []).isEmpty)
            let page = try await store.changeHistory(ChangeHistoryFetchRequest(startingToken: token))
            #expect(page.events.first?.dropReason == .otherStore)
        }
        try await folder.close()
    }

    @Test("Idle books close past the pool's capacity; books in use stay open")
    func boundedPool() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try await DataFolder.open(directory: directory.path, openBooks: 2)
        let owner = try await folder.admin()
        var books: [AddressBook] = []
        for index in 0..<6 {
            books.append(try await folder.sqliteCatalog.createBook(name: "B\(index)", ownerID: owner.id))
        }
        let held = try await folder.bookStores.acquireStore(books[0])
        for book in books.dropFirst() {
            try await folder.bookStores.withStore(book) { store in _ = try await store.currentHistoryToken() }
            #expect(await folder.bookStores.openCount <= 2)
        }
        // The held book was never closed under its user.
        _ = try await held.currentHistoryToken()
        await folder.bookStores.release(books[0].id)
        try await folder.bookStores.delete(books[1])
        #expect(!FileManager.default.fileExists(atPath: folder.bookStores.path(of: books[1])))
        try await folder.close()
    }

    @Test("Two opens of a new folder at once make one admin")
    func concurrentFirstOpens() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        async let first = DataFolder.open(directory: directory.path)
        async let second = DataFolder.open(directory: directory.path)
        let (a, b) = try await (first, second)
        #expect(try await a.catalog.principals().filter(\.isAdmin).count == 1)
        #expect(try await a.admin().id == b.admin().id)
        try await a.close()
        try await b.close()
    }
}
