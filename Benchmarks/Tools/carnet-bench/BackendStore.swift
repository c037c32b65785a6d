import CarnetStore
import CarnetStorePostgres
import CarnetStoreSQLite

/// One backend's store of a data set, seen only as `any ContactStore`: the comparison times both backends through
/// the same protocol calls, as the GraphQL layer and the server make them.
struct BackendStore {
    enum Kind: String, CaseIterable, Codable, Sendable {
        case sqlite, postgres
    }

    var kind: Kind
    var store: any ContactStore
    private var closeBackend: () async throws -> Void

    /// The data set's file on SQLite, or its copy (`PostgresDataset`) on PostgreSQL, with the default configuration
    /// but for the quota: a 1,000,000-contact book is full, and the save benchmark adds to it (then deletes).
    static func open(
        _ kind: Kind, dataset: Dataset, postgresURL: String?, configuration: StoreConfiguration = .benchmark
    ) async throws -> BackendStore {
        switch kind {
        case .sqlite:
            let store = try SQLiteStore.open(path: dataset.path, configuration: configuration)
            return BackendStore(kind: kind, store: store, closeBackend: { try await store.close() })
        case .postgres:
            guard let postgresURL else { throw StoreError(.validationFailed, "postgres needs --database") }
            let backend = try await PostgresBackend.open(
                try PostgresLocation(url: postgresURL), configuration: configuration)
            let store = try await backend.books.acquire(try await PostgresDataset.adminBook(backend))
            return BackendStore(kind: kind, store: store, closeBackend: { try await backend.close() })
        }
    }

    func close() async throws { try await closeBackend() }
}

extension StoreConfiguration {
    /// The defaults with room for the saves timed on a 1,000,000-contact book.
    static var benchmark: StoreConfiguration {
        var configuration = StoreConfiguration()
        configuration.contactsPerBook = 2_000_000
        return configuration
    }
}
