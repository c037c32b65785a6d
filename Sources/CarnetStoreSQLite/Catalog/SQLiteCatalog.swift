import CarnetStore
import Foundation
import GRDB

/// Who exists and who may open what: principals, address books, the grants between them, and access tokens.
///
/// The catalog is one small database beside the books' own (`catalog.sqlite` in the data folder); each book is a
/// whole ``SQLiteStore`` in a file of its own, opened through ``BookStores``. Identifiers of principals, books and
/// tokens are random, stable and never reused.
public struct SQLiteCatalog: CatalogStore {
    let writer: any DatabaseWriter
    /// Read-only connections for ``readByKey(_:)``; `nil` in memory.
    let keyReaders: PointReaders?
    /// The quotas in force.
    public let configuration: StoreConfiguration

    /// Opens (creating if needed) the catalog in a SQLite file, in WAL mode.
    public static func open(path: String, configuration: StoreConfiguration = StoreConfiguration()) throws
        -> SQLiteCatalog
    {
        // SQLite's own error named GRDB's probe table on a read-only folder (an outside tester's find): mapped, it
        // is a STORAGE_FAILURE with its result code.
        do {
            let databaseConfiguration = SQLiteStore.makeDatabaseConfiguration(configuration)
            let pool = try DatabasePool(path: path, configuration: databaseConfiguration)
            // Migrated first: the point connections expect the current schema.
            try CatalogMigrations.migrator.migrateAlongsideOthers(pool)
            let keyReaders = try PointReaders(
                path: path, count: keyReaderCount, configuration: databaseConfiguration,
                memoryMap: MemoryMapPolicy(configuration), direct: true)
            return SQLiteCatalog(writer: pool, keyReaders: keyReaders, configuration: configuration)
        } catch {
            throw StoreError.mapped(error)
        }
    }

    /// A catalog in memory, for tests and tools.
    public static func inMemory(configuration: StoreConfiguration = StoreConfiguration()) throws -> SQLiteCatalog {
        try SQLiteCatalog(
            writer: DatabaseQueue(configuration: SQLiteStore.makeDatabaseConfiguration(configuration)),
            configuration: configuration)
    }

    init(writer: any DatabaseWriter, configuration: StoreConfiguration) throws {
        try CatalogMigrations.migrator.migrateAlongsideOthers(writer)
        self.init(writer: writer, keyReaders: nil, configuration: configuration)
    }

    private init(writer: any DatabaseWriter, keyReaders: PointReaders?, configuration: StoreConfiguration) {
        self.writer = writer
        self.keyReaders = keyReaders
        self.configuration = configuration
    }

    /// Connections for reads by key: a request's book lookup needs one, and past them a read goes to the pool.
    static let keyReaderCount = 4

    /// Releases the database; the catalog must not be used afterwards. Its WAL goes into the file first: a stopped
    /// server's catalog was all in `catalog.sqlite-wal`, and a copy of the file alone held no catalog (an outside
    /// tester's find).
    public func close() throws {
        try keyReaders?.close()
        try SQLiteStore.checkpointAndClose(writer)
    }

    func read<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        do { return try await writer.read(body) } catch { throw StoreError.mapped(error) }
    }

    /// A read of a row or two by key, on the calling thread when one of ``keyReaders`` is free: the asynchronous
    /// read hands its work to one of GRDB's queues and the answer back, two thread hand-offs that took longer than
    /// the read (a request's book lookup; a cold book's open waited mostly on such hand-offs). Only for reads
    /// bounded by an index lookup.
    ///
    /// Never waits for the pool's readers on the calling thread: the pool gives a reader back from an asynchronous
    /// read only once that read's task runs again on the cooperative pool, and with both of its threads waiting
    /// for readers here the whole process stopped (a test suite's requests hung).
    func readByKey<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        do {
            guard let keyReaders else { return try await writer.read(body) }
            return try await keyReaders.read(body, otherwise: { try await writer.read(body) })
        } catch {
            throw StoreError.mapped(error)
        }
    }

    func write<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        do { return try await writer.write(body) } catch { throw StoreError.mapped(error) }
    }

    /// A fresh identifier, never handed out before (retired ones are remembered).
    static func newIdentifier(_ db: Database) throws -> String {
        while true {
            let id = UUID().uuidString
            let taken = try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM retiredIdentifier WHERE id = ?1) OR EXISTS (SELECT 1 FROM principal WHERE id = ?1)
                    OR EXISTS (SELECT 1 FROM addressBook WHERE id = ?1)
                    """, arguments: [id])
            if taken != true { return id }
        }
    }

    /// Remembers identifiers of deleted records so that none is ever handed out again.
    static func retire(_ db: Database, _ ids: [String]) throws {
        for id in ids {
            try db.execute(sql: "INSERT OR IGNORE INTO retiredIdentifier (id) VALUES (?)", arguments: [id])
        }
    }
}
