import CarnetStore
import CarnetStorePostgres
import Foundation
import Logging
import PostgresNIO
import Testing

/// A copy of a store's stored state as an operator's file-system snapshot or database dump takes it: the store
/// identifier, positions and history kept, unlike `carnet backup`.
package struct StoreStateCopy: Sendable {
    fileprivate var folder: URL?
    fileprivate var tablePrefix: String?
}

extension StoreFixture {
    /// Copies `store`'s stored state. A SQLite store is closed for the copy (its WAL folds into the file) and
    /// comes back through `store`, reopened.
    package func copyState(of store: inout any ContactStore) async throws -> StoreStateCopy {
        switch kind {
        case .inMemory:
            Issue.record("A store in memory has no files to copy.")
            return StoreStateCopy()
        case .onDiskWAL:
            let path = try #require(databasePath)
            try await store.close()
            let folder = try makeTemporaryDirectory()
            try FileManager.default.copyItem(atPath: path, toPath: folder.appendingPathComponent("copy.sqlite").path)
            store = try await reopen()
            return StoreStateCopy(folder: folder)
        case .postgres:
            let book = try #require(store as? PostgresStore).bookID
            let prefix = "sc_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
            try await Self.onSharedDatabase { connection, logger in
                for table in BookSchema.bookTables {
                    try await connection.query(
                        PostgresQuery(
                            unsafeSQL:
                                "CREATE TABLE \(prefix)_\(table) AS SELECT * FROM \(table) WHERE book_id = '\(book)'"
                        ), logger: logger)
                }
            }
            return StoreStateCopy(tablePrefix: prefix)
        }
    }

    /// Puts `copy` back in place of the store's state, as an operator restoring a snapshot with the servers
    /// stopped, and returns the store opened again on it.
    package func restoreState(_ copy: StoreStateCopy, replacing store: any ContactStore) async throws
        -> any ContactStore
    {
        try await store.close()
        switch kind {
        case .inMemory:
            Issue.record("A store in memory has no files to restore.")
        case .onDiskWAL:
            let path = try #require(databasePath)
            let folder = try #require(copy.folder)
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.removeItem(atPath: path + suffix)
            }
            try FileManager.default.copyItem(atPath: folder.appendingPathComponent("copy.sqlite").path, toPath: path)
            try? FileManager.default.removeItem(at: folder)
        case .postgres:
            let book = try #require(store as? PostgresStore).bookID
            let prefix = try #require(copy.tablePrefix)
            try await Self.onSharedDatabase { connection, logger in
                try await connection.query("BEGIN", logger: logger)
                for table in BookSchema.bookTables {
                    try await connection.query(
                        PostgresQuery(unsafeSQL: "DELETE FROM \(table) WHERE book_id = '\(book)'"), logger: logger)
                }
                for table in BookSchema.bookTables.reversed() {
                    try await connection.query(
                        PostgresQuery(unsafeSQL: "INSERT INTO \(table) SELECT * FROM \(prefix)_\(table)"),
                        logger: logger)
                    try await connection.query(
                        PostgresQuery(unsafeSQL: "DROP TABLE \(prefix)_\(table)"), logger: logger)
                }
                try await connection.query("COMMIT", logger: logger)
            }
        }
        return try await reopen()
    }

    private static func onSharedDatabase(
        _ body: @Sendable (PostgresConnection, Logger) async throws -> Void
    ) async throws {
        let logger = Logger(label: "carnet.tests.postgres")
        let database = try await PostgresDatabase.connect(
            try await PostgresTestDatabase.sharedLocation(), logger: logger)
        do {
            try await database.read { connection in try await body(connection, logger) }
        } catch {
            await database.close()
            throw error
        }
        await database.close()
    }
}
