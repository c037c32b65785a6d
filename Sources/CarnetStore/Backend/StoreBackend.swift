/// What a Carnet deployment stores everything in: the catalog and the address books' stores.
///
/// The embedded default is a data folder of SQLite files (`DataFolder`); the server and the CLI open one backend
/// and use it through this protocol only.
public protocol StoreBackend: Sendable {
    var catalog: any CatalogStore { get }
    var books: any AddressBookStores { get }
    /// Releases the catalog and every open book.
    func close() async throws
}

extension StoreBackend {
    /// The admin principal (there is one from the first open on).
    public func admin() async throws -> Principal {
        guard let admin = try await catalog.principals().first(where: \.isAdmin) else {
            throw StoreError(.storageFailure, "The catalog has no admin principal.")
        }
        return admin
    }
}
