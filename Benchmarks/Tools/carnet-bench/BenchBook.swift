import CarnetStore
import CarnetStorePostgres
import CarnetStoreSQLite
import Foundation

/// A generated book a benchmark makes once per backend and reuses: `<name>-<size>.sqlite` in `directory`, or book
/// `bench-<name>-<size>` in the PostgreSQL database of `databaseURL`. Returns the store and how to close it.
enum BenchBook {
    static func open(
        _ kind: BackendStore.Kind, name: String, size: Int, directory: String, databaseURL: String?
    ) async throws -> (any ContactStore, () async throws -> Void) {
        switch kind {
        case .sqlite:
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let store = try SQLiteStore.open(path: "\(directory)/\(name)-\(size).sqlite", configuration: .benchmark)
            return (store, { try await store.close() })
        case .postgres:
            guard let databaseURL else { throw StoreError(.validationFailed, "postgres needs --database") }
            let backend = try await PostgresBackend.open(try PostgresLocation(url: databaseURL))
            let book = AddressBook(id: "bench-\(name)-\(size)", name: name, ownerID: "bench")
            let store = try await PostgresBooks.open(backend, configuration: .benchmark).store(book)
            return (store, { try await backend.close() })
        }
    }
}
