import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore
@testable import CarnetStoreSQLite

/// An outside tester's find: a replica that leaves out its own author and applies its own saves at once kept a save
/// that a restore of the book's file (from a copy taken before it, with the servers stopped) had lost: its token
/// stood before the copy's end, so it went on with no word. A book whose file ends before where it ended when last
/// closed, or has another commit there, now opens under a new store identifier.
@Suite("A book file put back from an earlier copy")
struct PutBackBookTests {
    static func page(_ store: any ContactStore, since token: String?) async throws -> ChangeHistoryPage {
        try await store.changeHistory(
            ChangeHistoryFetchRequest(startingToken: token, excludedAuthors: ["me"], contactKeys: [.givenName]))
    }

    static func save(_ name: String, to store: any ContactStore) async throws {
        var request = SaveRequest(transactionAuthor: "me")
        request.add(Make.person(name, "Own"))
        try await store.execute(request)
    }

    @Test("Every replica syncs in full after a put-back copy; a book closed and opened again keeps its identity")
    func putBack() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var folder = try await DataFolder.open(directory: directory.path)
        let owner = try await folder.admin()
        let book = try await folder.catalog.createBook(name: "Restored", ownerID: owner.id)
        let (identity, token) = try await folder.bookStores.withStore(book) { store in
            try await Self.save("Kept", to: store)
            return (try await store.currentHistoryToken(), try await Self.page(store, since: nil).token)
        }
        try await folder.close()
        let path = folder.bookStores.path(of: book)
        let copy = path + ".copy"
        try FileManager.default.copyItem(atPath: path, toPath: copy)

        // Closed and opened again, untouched: the same store, and the replica's token continues.
        folder = try await DataFolder.open(directory: directory.path)
        let again = try await folder.bookStores.withStore(book) { store in
            (try await store.currentHistoryToken(), try await Self.page(store, since: token).events)
        }
        #expect(again.0 == identity)
        #expect(again.1.isEmpty)
        // The replica saves as itself and applies its save at once: its token stays where it was.
        try await folder.bookStores.withStore(book) { try await Self.save("Lost", to: $0) }
        try await folder.close()

        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: copy, toPath: path)
        folder = try await DataFolder.open(directory: directory.path)
        let page = try await folder.bookStores.withStore(book) { try await Self.page($0, since: token) }
        #expect(page.events.first?.dropReason == .otherStore)
        #expect(page.events.compactMap { $0.contact?.givenName } == ["Kept"])
        try await folder.close()

        // Renewed once: opened again, the restored book keeps its new identity.
        folder = try await DataFolder.open(directory: directory.path)
        let next = try await folder.bookStores.withStore(book) { try await Self.page($0, since: page.token) }
        #expect(next.events.isEmpty)
        try await folder.close()
    }

    @Test("A book opened and only read keeps to its point connection: its history note is checked there too")
    func readOnlyOpen() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var folder = try await DataFolder.open(directory: directory.path)
        let owner = try await folder.admin()
        let book = try await folder.catalog.createBook(name: "Read", ownerID: owner.id)
        try await folder.bookStores.withStore(book) { try await Self.save("Kept", to: $0) }
        try await folder.close()

        // Opened again with a note to check, then read: the pool's writer and readers stay closed (they cost a
        // book twelve more descriptors and their page caches, on every open of a server's many books).
        folder = try await DataFolder.open(directory: directory.path)
        let (writerOpen, descriptors, count) = try await folder.bookStores.withStore(book) { store in
            let sqlite = try #require(store as? SQLiteStore)
            let count = try await sqlite.contactCount()
            return (sqlite.database.isOpen, sqlite.fileDescriptors, count)
        }
        #expect(!writerOpen)
        #expect(descriptors == 3)
        #expect(count == 1)
        try await folder.close()
    }
}
