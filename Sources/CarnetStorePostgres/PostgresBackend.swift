import CarnetStore
import Foundation
import Logging

/// Carnet on PostgreSQL: the catalog and every book in one database, which several instances share.
///
/// Opening connects the instance's pool, migrates the schema once (whichever instance starts first, under an
/// advisory lock) and creates the admin principal on a new database.
public struct PostgresBackend: StoreBackend {
    let database: PostgresDatabase
    public let postgresCatalog: PostgresCatalog
    public let postgresBooks: PostgresBooks

    public var catalog: any CatalogStore { postgresCatalog }
    public var books: any AddressBookStores { postgresBooks }

    /// - Throws: ``StoreError`` `unavailable` when the database does not answer within the connect timeout.
    public static func open(
        _ location: PostgresLocation, configuration: StoreConfiguration = StoreConfiguration(),
        logger: Logger = Logger(label: "carnet.postgres"), allowingUnfinishedMigration: Bool = false
    ) async throws -> PostgresBackend {
        let database = try await PostgresDatabase.connect(
            location, lockTimeout: configuration.busyTimeout, logger: logger)
        do {
            try await PostgresMigrations.migrate(database)
            if !allowingUnfinishedMigration, try await hasUnfinishedMigration(database) {
                throw StoreError(
                    .storageFailure,
                    "This database holds a copy by carnet migrate-store that did not finish: run migrate-store "
                        + "again (it starts the copy over), or use another database.")
            }
            let backend = PostgresBackend(
                database: database,
                postgresCatalog: PostgresCatalog(database: database, configuration: configuration, ownsDatabase: false),
                postgresBooks: PostgresBooks(database: database, configuration: configuration))
            try await backend.bootstrap()
            backend.postgresBooks.listen()
            return backend
        } catch {
            await database.close()
            throw error
        }
    }

    /// Creates the admin principal on a new database; instances starting together make one (the name is unique).
    private func bootstrap() async throws {
        guard try await catalog.principals().first(where: \.isAdmin) == nil else { return }
        do {
            _ = try await postgresCatalog.createPrincipal(name: "admin", kind: .user, isAdmin: true)
        } catch let error as StoreError where error.code == .insertedRecordAlreadyExists {
            // Another instance made it first.
        }
    }

    public func close() async throws {
        await postgresBooks.closeAll()
        await database.close()
    }
}
