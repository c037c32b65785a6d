import CarnetStore
import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SQLiteStore {
    /// Writes a consistent copy of the database to `path` (which must not exist) while the store stays in use:
    /// the copy is one read snapshot, so saves committed during the backup are either wholly in it or not at all.
    ///
    /// The copy gets a store identifier of its own. Restored, it continues the history from the backup's point
    /// while the store it was taken from had gone further: with the same identifier, a replica's token from past
    /// that point was taken for a position of the restored history once new saves reached it, and the replica kept
    /// the records the restore lost and missed the saves before its position. With its own identifier every
    /// earlier token starts a full sync (`OTHER_STORE`).
    public func backup(to path: String) async throws {
        // Made here, empty and exclusively (VACUUM INTO writes into an empty file), so that a backup cut short
        // removes only its own file: a full disk left an empty file behind, which refused the retry (an outside
        // tester's find). Readable by the owner alone, as the data folder's files are.
        #if canImport(Glibc)
            let descriptor = Glibc.open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        #else
            let descriptor = Darwin.open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        #endif
        guard descriptor >= 0 else {
            if errno == EEXIST {
                throw StoreError(.validationFailed, "The backup destination already exists", keyPaths: ["path"])
            }
            throw StoreError(.storageFailure, "The backup destination cannot be created", keyPaths: ["path"])
        }
        #if canImport(Glibc)
            Glibc.close(descriptor)
        #else
            Darwin.close(descriptor)
        #endif
        do {
            // VACUUM INTO cannot run inside a transaction; it takes its own read snapshot, so it does not block
            // writers.
            try await mappingDatabaseErrors {
                try await writer.unsafeRead { db in try db.execute(sql: "VACUUM INTO ?", arguments: [path]) }
                let copy = try DatabaseQueue(path: path)
                try await copy.write { db in
                    try db.execute(
                        sql: "UPDATE storeInfo SET value = ? WHERE key = 'storeId'", arguments: [UUID().uuidString])
                }
                try copy.close()
            }
        } catch {
            for suffix in ["", "-journal", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: path + suffix)
            }
            throw error
        }
    }

    /// Sizes for monitoring: record counts and the database file's size (0 in memory).
    public func statistics() async throws -> StoreStatistics {
        let (contacts, groups, pages, pageSize) = try await read { db in
            (
                try SaveTransaction.contactCount(db),
                try Int.fetchOne(db, sql: "SELECT count(*) FROM \"group\"") ?? 0,
                try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0,
                try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            )
        }
        return StoreStatistics(contacts: contacts, groups: groups, databaseBytes: path == nil ? 0 : pages * pageSize)
    }
}
