import CarnetStoreTestSupport
import Foundation
import GRDB
import Testing

@testable import CarnetStore
@testable import CarnetStoreSQLite

/// A data folder whose files were lost fails to open what is gone, instead of starting it again empty. Outside
/// testers' finds: a deleted or emptied book file came back as a new, empty book, whose history tokens told every
/// replica to drop everything; an emptied catalog came back new, forgetting every principal, token and book.
@Suite("Lost files of a data folder")
struct LostFileTests {
    /// How a file is lost; `copiedWithoutWAL` is a copy taken while a server ran, whose tables were all in its
    /// `-wal`, restored alone (another tester's find: the book came back empty, under a new store identifier).
    enum Loss: CaseIterable { case deleted, emptied, copiedWithoutWAL }

    private static func lose(_ path: String, _ loss: Loss) throws {
        switch loss {
        case .deleted: try FileManager.default.removeItem(atPath: path)
        case .emptied: try Data().write(to: URL(fileURLWithPath: path))
        case .copiedWithoutWAL:
            let scratch = path + ".scratch"
            let pool = try DatabasePool(path: scratch)
            try pool.write { db in try db.execute(sql: "CREATE TABLE t (x)") }
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: scratch, toPath: path)
            try pool.close()
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: scratch + suffix) }
        }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    @Test("A closed folder's catalog is whole in its file: a copy of the file alone is the catalog")
    func catalogCheckpointedOnClose() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var folder = try await DataFolder.open(directory: directory.path)
        let owner = try await folder.admin()
        let book = try await folder.catalog.createBook(name: "Kept", ownerID: owner.id)
        try await folder.close()
        let catalog = directory.appendingPathComponent(DataFolder.catalogFileName).path
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: catalog + suffix) }
        folder = try await DataFolder.open(directory: directory.path)
        #expect(try await folder.catalog.book(id: book.id)?.name == "Kept")
        try await folder.close()
    }

    @Test(
        "A book whose file was made and is gone fails to open; a book never opened still opens",
        arguments: Loss.allCases)
    func lostBook(loss: Loss) async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var folder = try await DataFolder.open(directory: directory.path)
        let owner = try await folder.admin()
        let used = try await folder.catalog.createBook(name: "Used", ownerID: owner.id)
        let unused = try await folder.catalog.createBook(name: "Unused", ownerID: owner.id)
        try await folder.bookStores.withStore(used) { store in
            var save = SaveRequest()
            save.add(Make.person("Ada", "Lovelace"))
            try await store.execute(save)
        }
        try await folder.close()
        let path = folder.bookStores.path(of: used)
        try Self.lose(path, loss)

        folder = try await DataFolder.open(directory: directory.path)
        await #expect(throws: StoreError.self) {
            try await folder.bookStores.withStore(used) { try await $0.statistics() }
        }
        do {
            _ = try await folder.bookStores.withStore(used) { try await $0.statistics() }
        } catch let error as StoreError {
            #expect(error.code == .storageFailure)
            #expect(error.affectedRecordIdentifiers == [used.id])
        }
        // Nothing was made in its place.
        #expect(!BookFile.hasContent(path))
        // A book whose first open has not come yet is made then, as always.
        let count = try await folder.bookStores.withStore(unused) { try await $0.statistics().contacts }
        #expect(count == 0)
        #expect(BookFile.hasContent(folder.bookStores.path(of: unused)))
        try await folder.close()
    }

    @Test("A folder listed before the ledger learns which books have files when opened")
    func settledOnOpen() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var folder = try await DataFolder.open(directory: directory.path)
        let owner = try await folder.admin()
        let made = try await folder.catalog.createBook(name: "Made", ownerID: owner.id)
        let never = try await folder.catalog.createBook(name: "Never", ownerID: owner.id)
        _ = try await folder.bookStores.withStore(made) { try await $0.statistics() }
        // As a catalog of the version before: nothing known.
        try await folder.sqliteCatalog.write { db in try db.execute(sql: "UPDATE addressBook SET fileMade = NULL") }
        try await folder.close()

        folder = try await DataFolder.open(directory: directory.path)
        let states = try await folder.sqliteCatalog.read { db in
            try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT id, fileMade FROM addressBook").map {
                    ($0[0] as String, $0[1] as Int?)
                })
        }
        #expect(states[made.id] == 1)
        #expect(states[never.id] == 0)
        try await folder.close()
        try Self.lose(folder.bookStores.path(of: made), .deleted)
        folder = try await DataFolder.open(directory: directory.path)
        await #expect(throws: StoreError.self) {
            try await folder.bookStores.withStore(made) { try await $0.statistics() }
        }
        try await folder.close()
    }

    @Test(
        "A catalog gone while books are there stops the open; a folder of the single-store layout upgrades",
        arguments: Loss.allCases)
    func lostCatalog(loss: Loss) async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try await DataFolder.open(directory: directory.path)
        let owner = try await folder.admin()
        let book = try await folder.catalog.createBook(name: "Work", ownerID: owner.id)
        _ = try await folder.bookStores.withStore(book) { try await $0.statistics() }
        try await folder.close()
        let catalog = directory.appendingPathComponent(DataFolder.catalogFileName).path
        try Self.lose(catalog, loss)

        do {
            let reopened = try await DataFolder.open(directory: directory.path)
            try? await reopened.close()
            Issue.record("A folder without its catalog opened")
        } catch let error as StoreError {
            #expect(error.code == .storageFailure)
            #expect(error.message.contains("1 address books"))
        }
        // Nothing was made in its place.
        #expect(!BookFile.hasContent(catalog))

        // Without books beside it (the single-store layout), the folder is upgraded as before.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("books"))
        let upgraded = try await DataFolder.open(directory: directory.path)
        #expect(try await upgraded.catalog.principals().count == 1)
        try await upgraded.close()
    }

    /// An outside tester's find: a book file removed by hand while the book was open made a save fail with
    /// RECORD_DOES_NOT_EXIST (a client takes it for a deleted book), and reads went on from the removed file.
    @Test("A file removed under an open book: its save is STORAGE_FAILURE, and so is every request after")
    func removedWhileOpen() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try await DataFolder.open(directory: directory.path)
        let owner = try await folder.admin()
        let lost = try await folder.catalog.createBook(name: "Lost", ownerID: owner.id)
        let deleted = try await folder.catalog.createBook(name: "Deleted", ownerID: owner.id)
        for book in [lost, deleted] {
            try await folder.bookStores.withStore(book) { store in
                var save = SaveRequest()
                save.add(Make.person("Ada", book.name))
                try await store.execute(save)
            }
        }
        // The other: deleted by another process, which unlists the book before removing its file.
        let other = try await DataFolder.open(directory: directory.path)
        _ = try await other.catalog.deleteBook(id: deleted.id, by: owner.id)
        try await other.close()
        for book in [lost, deleted] {
            let path = folder.bookStores.path(of: book)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }

        for (book, code) in [(lost, StoreError.Code.storageFailure), (deleted, .recordDoesNotExist)] {
            do {
                _ = try await folder.bookStores.withStore(book) { store in
                    var save = SaveRequest()
                    save.add(Make.person("Grace", book.name))
                    return try await store.execute(save)
                }
                Issue.record("A save to \(book.name) succeeded")
            } catch let error as StoreError {
                #expect(error.code == code, "\(book.name)")
            }
        }
        // The store was closed once given back: a read opens the book again and finds its file lost.
        do {
            _ = try await folder.bookStores.withStore(lost) { try await $0.contactCount() }
            Issue.record("A read of a book whose file was removed succeeded")
        } catch let error as StoreError {
            #expect(error.code == .storageFailure)
        }
        #expect(!BookFile.hasContent(folder.bookStores.path(of: lost)))
        try await folder.close()
    }
}
