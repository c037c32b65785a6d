import CarnetStore
import Foundation
import Logging
import PostgresNIO

/// The database's schema history. Append-only: a shipped migration is never edited.
///
/// Instances starting together migrate once: the run holds a session-level advisory lock on a constant key, and each
/// migration commits with its record in `carnet_migration`, so an instance that waited finds them applied.
enum PostgresMigrations {
    /// One migration: statements run in one transaction (the extended protocol takes one statement per query).
    struct Migration {
        var id: String
        var statements: [String]
        /// Work SQL cannot do (keys folded in Swift), run after the statements in their transaction.
        var step: (@Sendable (PostgresConnection, Logger) async throws -> Void)? = nil
    }

    static let all: [Migration] = [
        CatalogSchema.v1, BookSchema.v1, BookSchema.v2, BookSchema.v3, BookSchema.v4, BookSchema.v5, BookSchema.v6,
        BookSchema.v7, BookSchema.v8, CatalogSchema.v2, BookSchema.v9,
    ]

    /// The advisory lock key: "CarnetMg" in ASCII, so other applications on the database are unlikely to use it.
    static let lockKey: Int64 = 0x4361_726E_6574_4D67

    /// Applies `migrations` (every one by default; tests stop at an earlier schema) that the database lacks.
    static func migrate(_ database: PostgresDatabase, _ migrations: [Migration] = all) async throws {
        let logger = database.logger
        try await database.read { connection in
            // Waiting for another instance's migration is not a busy book: no lock timeout here.
            try await connection.rows("SET lock_timeout = 0", logger: logger)
            try await connection.rows("SELECT pg_advisory_lock(\(lockKey))", logger: logger)
            do {
                try await apply(migrations, connection, logger: logger)
            } catch {
                _ = try? await connection.rows("SELECT pg_advisory_unlock(\(lockKey))", logger: logger)
                _ = try? await connection.rows("RESET lock_timeout", logger: logger)
                throw error
            }
            try await connection.rows("SELECT pg_advisory_unlock(\(lockKey))", logger: logger)
            try await connection.rows("RESET lock_timeout", logger: logger)
        }
    }

    private static func apply(_ migrations: [Migration], _ connection: PostgresConnection, logger: Logger) async throws
    {
        try await connection.rows(
            "CREATE TABLE IF NOT EXISTS carnet_migration (id text PRIMARY KEY, applied_at double precision NOT NULL)",
            logger: logger)
        var applied: Set<String> = []
        for try await id in try await connection.rows("SELECT id FROM carnet_migration", logger: logger)
            .decode(String.self)
        {
            applied.insert(id)
        }
        for migration in migrations where !applied.contains(migration.id) {
            try await connection.inTransaction(logger: logger) { connection in
                for statement in migration.statements {
                    try await connection.rows(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await migration.step?(connection, logger)
                try await connection.rows(
                    "INSERT INTO carnet_migration (id, applied_at) VALUES (\(migration.id), \(Date().timeIntervalSince1970))",
                    logger: logger)
            }
        }
    }
}
