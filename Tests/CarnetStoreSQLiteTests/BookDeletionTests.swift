import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore
@testable import CarnetStoreSQLite

/// A book deleted while requests and subscriptions hold it: an outside client deleting books under load got
/// internal errors (reads on connections the deletion had closed) before the deletion waited for them.
@Suite("Deleting a book that is in use")
struct BookDeletionTests {
    @Test("Requests holding the book finish on it, its subscriptions end, then it closes; it never opens again")
    func deleteWhileHeld() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try await DataFolder.open(directory: directory.path)
        let owner = try await folder.admin()
        let book = try await folder.sqliteCatalog.createBook(name: "Doomed", ownerID: owner.id)
        let pool = BookStores(directory: directory.path)
        let request = try await pool.acquireStore(book)
        try await request.add([Make.person("Anna", "Held")])
        // A subscriber, holding the book for its lifetime as a server's subscription does.
        let subscriber = try await pool.acquireStore(book)
        let changes = await subscriber.changes()
        let subscription = Task {
            for await _ in changes {}
            await pool.release(book.id)
        }
        let deletion = Task { try await pool.delete(book) }
        // The subscription ends without anyone giving the book back by hand.
        await subscription.value
        // The deletion waits for the request, whose reads go on meanwhile.
        for _ in 0..<20 {
            await Task.yield()
            #expect(try await request.contacts(ContactFetchRequest(keysToFetch: [.givenName])).contacts.count == 1)
        }
        let path = pool.path(of: book)
        #expect(FileManager.default.fileExists(atPath: path))
        await pool.release(book.id)
        try await deletion.value
        #expect(!FileManager.default.fileExists(atPath: path))
        // A request that found the book in the catalog just before: refused, and no file is created.
        let error = await #expect(throws: StoreError.self) { _ = try await pool.acquireStore(book) }
        #expect(error?.code == .recordDoesNotExist)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(await pool.openCount == 0)
    }

    /// `carnet book delete` (or a restore) against a running server's folder removes the file under the server's
    /// open connection: a save went to the unlinked file, was acknowledged, and was lost with it.
    @Test("A book whose file another process deleted or replaced refuses saves; nothing is acknowledged")
    func fileRemovedByAnotherProcess() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for replace in [false, true] {
            let path = directory.appendingPathComponent("book-\(replace).sqlite").path
            let store = try SQLiteStore.open(path: path)
            try await store.add([Make.person("Anna", "Kept")])
            if replace {
                // A copy renamed over the path, as a restore from a backup would: another file at the same path.
                let copy = path + ".restored"
                try FileManager.default.copyItem(atPath: path, toPath: copy)
                #expect(rename(copy, path) == 0)
            } else {
                try BookStores.removeFiles(atPath: path)
            }
            let error = await #expect(throws: StoreError.self) { try await store.add([Make.person("Ben", "Lost")]) }
            #expect(error?.code == .recordDoesNotExist, "replace: \(replace)")
            // Reads go on from the open file until the pool closes the book.
            #expect(try await store.contacts(ContactFetchRequest(keysToFetch: [.givenName])).contacts.count == 1)
            try await store.close()
        }
        // A file in place saves as ever.
        let kept = try SQLiteStore.open(path: directory.appendingPathComponent("kept.sqlite").path)
        try await kept.add([Make.person("Cleo", "Saved")])
        #expect(try await kept.contactCount() == 1)
        try await kept.close()
    }

    @Test(
        "A writer that holds the book, saving batch after batch as an import does, is refused once the deletion starts")
    func deleteUnderLongImport() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try await DataFolder.open(directory: directory.path)
        let book = try await folder.sqliteCatalog.createBook(name: "Doomed", ownerID: try await folder.admin().id)
        let pool = BookStores(directory: directory.path)
        let store = try await pool.acquireStore(book)
        let (saving, started) = AsyncStream<Void>.makeStream()
        // Holds its lease until a save is refused (or 20,000 batches, which the deletion waited for before).
        let importer = Task { () -> (Int, StoreError.Code?) in
            var batches = 0
            defer { Task { await pool.release(book.id) } }
            while batches < 20_000 {
                do {
                    try await store.add((0..<10).map { Make.person("Batch \(batches)", "Card \($0)") })
                } catch let error as StoreError {
                    return (batches, error.code)
                }
                batches += 1
                if batches == 3 { started.yield() }
            }
            return (batches, nil)
        }
        for await _ in saving { break }
        try await pool.delete(book)
        let (batches, refusal) = try await importer.value
        #expect(refusal == .recordDoesNotExist, "\(batches) batches, then \(String(describing: refusal))")
        #expect(batches < 20_000)
        #expect(!FileManager.default.fileExists(atPath: pool.path(of: book)))
        try await folder.close()
    }

    @Test("A deletion cut short after the catalog: the next open of the folder removes the book's files, only those")
    func filesLeftByAnInterruptedDeletion() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var folder = try await DataFolder.open(directory: directory.path)
        let owner = try await folder.admin()
        let doomed = try await folder.sqliteCatalog.createBook(name: "Doomed", ownerID: owner.id)
        let kept = try await folder.sqliteCatalog.createBook(name: "Kept", ownerID: owner.id)
        let user = try await folder.catalog.createPrincipal(name: "leaving", kind: .user, isAdmin: false)
        let userBook = try await folder.sqliteCatalog.createBook(name: "Theirs", ownerID: user.id)
        for book in [doomed, kept, userBook] {
            try await folder.bookStores.withSQLiteStore(book) { store in
                try await store.add([Make.person("Anna", book.name)])
            }
        }
        // The catalog forgets them; the process stops before the files go.
        _ = try await folder.catalog.deleteBook(id: doomed.id, by: owner.id)
        let userBooks = try await folder.catalog.deletePrincipal(id: user.id)
        #expect(userBooks.map(\.id).contains(userBook.id))
        try await folder.close()
        let paths = [doomed, kept, userBook].map { folder.bookStores.path(of: $0) }
        #expect(paths.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        folder = try await DataFolder.open(directory: directory.path)
        #expect(!FileManager.default.fileExists(atPath: paths[0]))
        #expect(FileManager.default.fileExists(atPath: paths[1]))
        #expect(!FileManager.default.fileExists(atPath: paths[2]))
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: directory.appendingPathComponent("books").path)
        #expect(!leftovers.contains { $0.hasPrefix(doomed.id) || $0.hasPrefix(userBook.id) }, "\(leftovers)")
        let contacts = try await folder.bookStores.withSQLiteStore(kept) { store in try await store.contactCount() }
        #expect(contacts == 1)
        try await folder.close()
    }
}

/// An outside tester's find: `carnet status --book` failed with Foundation's raw "no such file" error while the
/// server deleted another book, as both removed that book's retired files.
@Suite("Retired book files")
struct RetiredBookFileTests {
    @Test("Two processes removing the same retired files both succeed")
    func concurrentRemoval() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try await DataFolder.open(directory: directory.path)
        let owner = try await folder.admin()
        var paths: [String] = []
        for index in 0..<40 {
            let book = try await folder.sqliteCatalog.createBook(name: "Gone \(index)", ownerID: owner.id)
            _ = try await folder.sqliteCatalog.deleteBook(id: book.id, by: owner.id)
            paths.append(BookStores(directory: directory.path).path(of: book))
        }
        let all = paths
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent(BookStores.folderName), withIntermediateDirectories: true)
        for round in 0..<5 {
            // Left behind as by a process stopped between the catalog's delete and the files'.
            for path in all {
                for suffix in ["", "-wal", "-shm"] {
                    #expect(FileManager.default.createFile(atPath: path + suffix, contents: Data("x".utf8)))
                }
            }
            async let first = folder.removeRetiredBookFiles()
            async let second: Void = BookStores.removeAll(all)
            let removed = try await first
            try await second
            #expect(removed.count <= all.count, "round \(round)")
            for path in all { #expect(!FileManager.default.fileExists(atPath: path), "round \(round)") }
        }
    }
}

extension BookStores {
    /// The same removals from another thread, as the other process's.
    fileprivate static func removeAll(_ paths: [String]) async throws {
        try await Task.detached {
            for path in paths { try removeFiles(atPath: path) }
        }.value
    }
}
