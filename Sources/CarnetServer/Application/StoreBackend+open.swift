import CarnetStore
import CarnetStoreSQLite

/// Opens the backend the configuration names: the only place above the store that knows a backend's type.
/// Today the embedded default, a data folder (creating it, or upgrading a folder of the single-book layout).
func openBackend(_ configuration: ServerConfiguration) async throws -> any StoreBackend {
    try await DataFolder.open(
        directory: configuration.dataDirectory, configuration: configuration.storeConfiguration,
        openBooks: configuration.openBooks)
}
