import CarnetStore
import Foundation
import GRDB

extension DataFolder: StoreMigrationSource {
    /// The catalog read in one transaction.
    public func exportCatalog() async throws -> CatalogArchive {
        try await sqliteCatalog.read { db in
            let grants = try Row.fetchAll(
                db, sql: "SELECT bookId, principalId, access, grantedAt FROM bookGrant ORDER BY bookId, principalId"
            ).map { row in
                CatalogArchive.Grant(
                    bookID: row[0], principalID: row[1], access: BookAccess(rawValue: row[2]) ?? .read,
                    granted: Date(timeIntervalSince1970: row[3]))
            }
            return CatalogArchive(
                principals: try Row.fetchAll(
                    db, sql: "SELECT \(SQLiteCatalog.principalColumns) FROM principal ORDER BY createdAt, id"
                ).map(SQLiteCatalog.principal),
                books: try Row.fetchAll(
                    db, sql: "SELECT \(SQLiteCatalog.bookColumns) FROM addressBook ORDER BY createdAt, id"
                ).map(SQLiteCatalog.book),
                grants: grants,
                tokens: try Row.fetchAll(
                    db, sql: "SELECT \(SQLiteCatalog.tokenColumns) FROM accessToken ORDER BY createdAt, id"
                ).map(SQLiteCatalog.accessToken),
                retiredIdentifiers: try String.fetchAll(db, sql: "SELECT id FROM retiredIdentifier ORDER BY id"))
        }
    }

    public func exportBook(_ book: AddressBook, to write: @Sendable (BookArchiveSection) async throws -> Void)
        async throws
    {
        try await bookStores.withSQLiteStore(book) { store in try await store.exportArchive(to: write) }
    }
}
