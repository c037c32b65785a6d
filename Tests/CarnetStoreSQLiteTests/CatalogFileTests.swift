import CarnetStore
import CarnetStoreTestSupport
import Foundation
import GRDB
import Testing

@testable import CarnetStoreSQLite

/// What the SQLite catalog keeps in its file: a book's file name, and the identifiers it must never hand out again.
@Suite("SQLite catalog files")
struct CatalogFileTests {
    @Test("A deleted book's file is named by its id and the id is retired")
    func retiredBook() async throws {
        try await CatalogFixture.with(.sqlite) { catalog in
            let catalog = try #require(catalog as? SQLiteCatalog)
            let alice = try await catalog.createPrincipal(name: "alice")
            let second = try await catalog.createBook(name: "Work", ownerID: alice.id)
            let file = try await catalog.read { db in
                try String.fetchOne(db, sql: "SELECT fileName FROM addressBook WHERE id = ?", arguments: [second.id])
            }
            #expect(file == "books/\(second.id).sqlite")
            let deleted = try await catalog.deleteBook(id: second.id, by: alice.id)
            #expect(BookStores(directory: "/data").path(of: deleted) == "/data/books/\(second.id).sqlite")
            let retired = try await catalog.read { db in
                try Bool.fetchOne(db, sql: "SELECT 1 FROM retiredIdentifier WHERE id = ?", arguments: [second.id])
            }
            #expect(retired == true)
        }
    }
}
