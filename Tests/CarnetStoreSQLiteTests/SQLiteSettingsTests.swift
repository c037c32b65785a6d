import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore
@testable import CarnetStoreSQLite

/// SQLite's process-wide settings hold however the process first reaches SQLite.
@Suite("SQLite settings")
struct SQLiteSettingsTests {
    @Test("Memory statistics stay off when the catalog, not a book, opens the first connection")
    func memoryStatisticsOff() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The server's order: the catalog (a GRDB pool) first, then books. sqlite3_config is refused once SQLite
        // has initialized, and a setting applied by the book's open was silently lost behind the catalog's.
        let folder = try await DataFolder.open(directory: directory.path)
        let admin = try await folder.admin()
        let bookID = try #require(admin.defaultBookID)
        let book = try #require(try await folder.sqliteCatalog.book(id: bookID))
        try await folder.bookStores.withStore(book) { store in
            var save = SaveRequest(transactionAuthor: "settings")
            var contact = Contact()
            contact.givenName = "Ada"
            save.add(contact)
            try await store.execute(save)
            #expect(
                try await store.contacts(withIdentifiers: [contact.identifier], keysToFetch: [.givenName]).count == 1)
        }
        #expect(!SQLiteStore.memoryStatisticsEnabled)
        try await folder.close()
    }
}
