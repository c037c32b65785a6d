import CarnetStore
import CarnetStorePostgres
import CarnetStoreSQLite
import Logging

/// Opens the backend the configuration names: the only place in the server that knows a backend's type.
/// PostgreSQL when ``ServerConfiguration/databaseURL`` is set, else the embedded default, a data folder (created,
/// or upgraded from the single-book layout).
func openBackend(_ configuration: ServerConfiguration, logger: Logger) async throws -> any StoreBackend {
    if let url = configuration.databaseURL {
        return try await PostgresBackend.open(
            try PostgresLocation(url: url), configuration: configuration.storeConfiguration, logger: logger)
    }
    return try await DataFolder.open(
        directory: configuration.dataDirectory, configuration: configuration.storeConfiguration,
        openBooks: configuration.openBooks)
}

/// The most connections the listener holds: the configured number, else what the open-file limit leaves after the
/// embedded backend's books (which PostgreSQL's pool of a few connections does not need, but the same bound keeps
/// one rule).
func connectionLimit(_ configuration: ServerConfiguration) -> Int {
    configuration.maxConnections ?? FileDescriptorBudget.forConnections
}
