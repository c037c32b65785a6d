import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore
@testable import CarnetStoreSQLite

/// What an open address book costs: one read-only connection until it is written, a WAL emptied on close, and a
/// pool bounded by file descriptors that closes the least recently used idle books first.
@Suite("Open books: connections, descriptors and eviction")
struct BookPoolTests {
    private func contact(_ name: String) -> Contact {
        var contact = Contact()
        contact.givenName = name
        return contact
    }

    @Test("A migrated file reopens with one read-only connection; the writer opens on the first save")
    func lazyWriter() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("book.sqlite").path
        let created = try SQLiteStore.open(path: path)
        let ada = contact("Ada")
        var request = SaveRequest(transactionAuthor: "t")
        request.add(ada)
        try await created.execute(request)
        try await created.close()

        let store = try SQLiteStore.open(path: path)
        #expect(!store.database.isOpen)
        #expect(store.fileDescriptors == 3)
        #expect(try await store.contacts(withIdentifiers: [ada.identifier], keysToFetch: [.givenName]).count == 1)
        #expect(!store.database.isOpen)
        var second = SaveRequest(transactionAuthor: "t")
        second.add(contact("Grace"))
        try await store.execute(second)
        #expect(store.database.isOpen)
        #expect(store.fileDescriptors > 3)
        #expect(try await store.statistics().contacts == 2)
        try await store.close()
    }

    @Test("Closing a store empties its WAL, so the next open does not replay it")
    func checkpointOnClose() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("book.sqlite").path
        let store = try SQLiteStore.open(path: path)
        // A history read opens a pool reader too: GRDB closes the writer before it, which left the WAL whole.
        _ = try await store.changeHistory(ChangeHistoryFetchRequest(startingToken: nil))
        for index in 0..<20 {
            var request = SaveRequest(transactionAuthor: "t")
            request.add(contact("C\(index)"))
            try await store.execute(request)
        }
        let wal = path + "-wal"
        #expect(try walSize(wal) > 0)
        try await store.close()
        #expect(try walSize(wal) == 0)
        let reopened = try SQLiteStore.open(path: path)
        #expect(try await reopened.statistics().contacts == 20)
        try await reopened.close()
    }

    @Test("A book's readers map its file once it grows past the size under which they open unmapped")
    func mapsOnceGrown() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = StoreConfiguration()
        configuration.memoryMapMinimumFileBytes = 256 << 10
        let store = try SQLiteStore.open(
            path: directory.appendingPathComponent("book.sqlite").path, configuration: configuration)
        let readers = try #require(store.pointReaders)
        func mapSize() throws -> Int {
            try readers.read({ db in try Int.fetchOne(db, sql: "PRAGMA mmap_size") ?? -1 }, otherwise: { -2 })
        }
        #expect(try mapSize() == 0)
        var grow = SaveRequest(transactionAuthor: "t")
        for index in 0..<400 {
            var contact = Contact()
            contact.givenName = "Name \(index)"
            contact.note = String(repeating: "n", count: 1_000)
            grow.add(contact)
        }
        try await store.execute(grow)
        // The WAL holds the new pages until a checkpoint writes them into the file.
        _ = try await store.writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        for _ in 0..<1_100 { _ = try await store.statistics() }
        #expect(try mapSize() == configuration.memoryMapBytes)
        try await store.close()
    }

    private func walSize(_ path: String) throws -> Int {
        guard FileManager.default.fileExists(atPath: path) else { return 0 }
        return (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    @Test("Idle books past the descriptor budget close, least recently used first; held books stay open")
    func descriptorBudget() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try await DataFolder.open(directory: directory.path)
        let owner = try await folder.admin()
        var books: [AddressBook] = []
        for index in 0..<5 {
            books.append(try await folder.sqliteCatalog.createBook(name: "B\(index)", ownerID: owner.id))
        }
        // Create each book's file (new files open with their writer), then start from a pool of read-only books.
        for book in books { try await folder.bookStores.withStore(book) { _ = try await $0.statistics() } }
        try await folder.close()

        let catalog = try SQLiteCatalog.open(path: directory.appendingPathComponent(DataFolder.catalogFileName).path)
        defer { try? catalog.close() }
        // Room for three read-only books (three descriptors each).
        let pool = BookStores(directory: directory.path, descriptorBudget: 9)
        let held = try await pool.acquireStore(books[0])
        for book in books[1...3] { try await pool.withStore(book) { _ = try await $0.statistics() } }
        // books[3] did not fit beside the held one and two idle ones: books[1], given back first, was closed.
        #expect(await pool.openBookIDs == Set([books[0], books[2], books[3]].map(\.id)))
        try await pool.withStore(books[4]) { _ = try await $0.statistics() }
        #expect(await pool.openBookIDs == Set([books[0], books[3], books[4]].map(\.id)))
        // A book written while held counts its writer's descriptors when given back: more than the budget with the
        // held book, so both idle books close, the written one too.
        try await pool.withStore(books[3]) { store in
            var request = SaveRequest(transactionAuthor: "t")
            request.add(contact("Ada"))
            try await store.execute(request)
        }
        #expect(await pool.openBookIDs == [books[0].id])
        _ = try await held.statistics()
        await pool.release(books[0].id)
        await pool.closeAll()
    }

    /// Under 0.7 s alone, but 135-210 s in the whole suite at 100 rounds: each round is a chain of task hops (an
    /// open, a close, the pool's actor), and each waits its turn on two threads the suite keeps busy.
    @Test("A book evicted and asked for again at once opens after its close, never beside it", .timeLimit(.minutes(10)))
    func reopenWhileClosing() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try await DataFolder.open(directory: directory.path)
        let owner = try await folder.admin()
        var books: [AddressBook] = []
        var identifiers: [String] = []
        for index in 0..<2 {
            let book = try await folder.sqliteCatalog.createBook(name: "B\(index)", ownerID: owner.id)
            let ada = contact("Ada \(index)")
            try await folder.bookStores.withStore(book) { store in
                var request = SaveRequest(transactionAuthor: "t")
                request.add(ada)
                try await store.execute(request)
            }
            books.append(book)
            identifiers.append(ada.identifier)
        }
        try await folder.close()

        // One book at a time: every acquire of the other evicts this one, whose close (checkpoint, removing its
        // WAL and shared-memory files) then runs while the next request opens it again. Opened beside its close,
        // a read-only open found the files half gone: "unable to open database file", an internal error.
        let pool = BookStores(directory: directory.path, capacity: 1)
        let (books0, ids) = (books, identifiers)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for round in 0..<40 {
                        let index = (worker + round) % 2
                        let found = try await pool.withStore(books0[index]) { store in
                            try await store.contacts(withIdentifiers: [ids[index]], keysToFetch: [.givenName]).count
                        }
                        #expect(found == 1)
                    }
                }
            }
            try await group.waitForAll()
        }
        await pool.closeAll()
    }
}
