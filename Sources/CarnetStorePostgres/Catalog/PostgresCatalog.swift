import CarnetStore
import Foundation
import Logging
import PostgresNIO

/// The catalog on PostgreSQL: principals, address books, grants and access tokens, shared by every instance.
///
/// Writes that check before they change (a quota, a unique name, an owner) lock the principal's row first
/// (`SELECT … FOR UPDATE`), so two instances cannot both pass the check; identifiers are random and never reused.
public struct PostgresCatalog: CatalogStore {
    let database: PostgresDatabase
    public let configuration: StoreConfiguration
    /// Whether ``close()`` closes the pool: a catalog opened on its own does, one sharing a backend's does not.
    let ownsDatabase: Bool

    init(database: PostgresDatabase, configuration: StoreConfiguration, ownsDatabase: Bool) {
        self.database = database
        self.configuration = configuration
        self.ownsDatabase = ownsDatabase
    }

    /// Connects to the database, migrating its schema first (once, whichever instance starts first), for a catalog
    /// with a pool of its own. - Throws: ``StoreError`` `unavailable` when the database does not answer.
    public static func open(
        _ location: PostgresLocation, configuration: StoreConfiguration = StoreConfiguration(),
        logger: Logger = Logger(label: "carnet.postgres")
    ) async throws -> PostgresCatalog {
        let database = try await PostgresDatabase.connect(
            location, lockTimeout: configuration.busyTimeout, logger: logger)
        do {
            try await PostgresMigrations.migrate(database)
        } catch {
            await database.close()
            throw error
        }
        return PostgresCatalog(database: database, configuration: configuration, ownsDatabase: true)
    }

    var logger: Logger { database.logger }

    /// Closes the pool if the catalog has its own.
    public func close() async throws {
        if ownsDatabase { await database.close() }
    }

    /// A fresh identifier, never handed out before (retired ones are remembered).
    static func newIdentifier(_ connection: PostgresConnection, logger: Logger) async throws -> String {
        while true {
            let id = UUID().uuidString
            let taken = try await connection.rows(
                """
                SELECT 1 FROM retired_identifier WHERE id = \(id) UNION ALL SELECT 1 FROM principal WHERE id = \(id)
                UNION ALL SELECT 1 FROM address_book WHERE id = \(id)
                """, logger: logger
            ).collect()
            if taken.isEmpty { return id }
        }
    }

    /// Remembers identifiers of deleted records so that none is ever handed out again.
    static func retire(_ connection: PostgresConnection, _ ids: [String], logger: Logger) async throws {
        for id in ids {
            try await connection.rows(
                "INSERT INTO retired_identifier (id) VALUES (\(id)) ON CONFLICT DO NOTHING", logger: logger)
        }
    }
}
