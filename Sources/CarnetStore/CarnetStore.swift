import CSQLiteSettings
import Foundation
import GRDB
import Synchronization

/// The Carnet record store: contacts, groups and containers, atomic save requests, and change history.
///
/// Open one store per database file per process and share it: it is `Sendable`, reads run concurrently and
/// writes are serialized. On disk the database runs in WAL mode, so other processes (a CLI import while the
/// server runs) can write the same file; their commits reach ``changes()`` subscribers too.
///
/// ```swift
/// let store = try CarnetStore.open(path: "carnet-data/carnet.sqlite")
/// var request = SaveRequest(transactionAuthor: "importer")
/// var contact = Contact()
/// contact.givenName = "Anna"
/// request.add(contact)
/// let result = try await store.execute(request)
/// ```
public struct CarnetStore: Sendable {
    let writer: any DatabaseWriter
    /// The on-disk store's own read-only connections for bounded reads; `nil` in memory.
    let pointReaders: PointReaders?
    /// The settings the store was opened with.
    public let configuration: StoreConfiguration
    let notifier: ChangeNotifier
    let maintenance: MaintenanceClock
    /// Identifies this database in history tokens, so a token from another store is recognised as foreign.
    let storeID: String

    /// Opens (creating if needed) the store in a SQLite file, in WAL mode.
    public static func open(path: String, configuration: StoreConfiguration = StoreConfiguration()) throws
        -> CarnetStore
    {
        _ = sqliteSettings
        let pool = try DatabasePool(path: path, configuration: makeDatabaseConfiguration(configuration))
        return try CarnetStore(writer: pool, configuration: configuration)
    }

    /// A store that lives in memory only, for tests and tools.
    public static func inMemory(configuration: StoreConfiguration = StoreConfiguration()) throws -> CarnetStore {
        _ = sqliteSettings
        return try CarnetStore(
            writer: DatabaseQueue(configuration: makeDatabaseConfiguration(configuration)),
            configuration: configuration)
    }

    /// Wraps an open database, migrating its schema to the current version.
    init(writer: any DatabaseWriter, configuration: StoreConfiguration) throws {
        try Migrations.migrator.migrate(writer)
        self.storeID = try writer.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM storeInfo WHERE key = 'storeId'")!
        }
        self.writer = writer
        self.pointReaders = try (writer as? DatabasePool).map { pool in
            try PointReaders(
                path: pool.path, count: PointReaders.defaultCount, configuration: pool.configuration,
                direct: configuration.statementTrace == nil)
        }
        self.configuration = configuration
        self.notifier = ChangeNotifier(
            writer: writer, storeID: storeID, interval: configuration.externalChangePollInterval)
        self.maintenance = MaintenanceClock()
    }

    /// Process-wide SQLite settings, applied once before the first connection opens: memory statistics off, so
    /// SQLite's allocations do not all take one global mutex (readers on two threads contended for it).
    private static let sqliteSettings: Int32 = carnet_sqlite_disable_memory_statistics()

    /// The single place where connections are set up.
    static func makeDatabaseConfiguration(_ settings: StoreConfiguration) -> Configuration {
        var config = Configuration()
        config.busyMode = .timeout(settings.busyTimeout)
        config.foreignKeysEnabled = true
        // Statement arguments are contact data: keep them out of error messages and logs.
        config.publicStatementArguments = false
        let trace = settings.statementTrace
        let (mmap, cache) = (max(0, settings.memoryMapBytes), max(0, settings.pageCacheBytes / 1024))
        config.prepareDatabase { db in
            if let trace { db.trace { trace($0.expandedDescription) } }
            // WAL with NORMAL survives process crashes (SIGKILL) whole; only a power cut can lose the last commits.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA mmap_size = \(mmap)")
            // The writer gets eight times the readers' cache: inserts into name-ordered indexes land all over them.
            try db.execute(sql: "PRAGMA cache_size = -\(db.configuration.readonly ? cache : cache * 8)")
            if !db.configuration.readonly {
                // Checkpoint every 32 MB of WAL rather than 4 MB: fewer, larger copies during imports.
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 8192")
            }
        }
        return config
    }

    /// The path of the database file, or `nil` in memory.
    public var path: String? { writer.path == ":memory:" ? nil : writer.path }

    /// Releases the database; the store must not be used afterwards.
    public func close() async throws {
        await notifier.finishAll()
        try pointReaders?.close()
        // GRDB's close waits until every read of the pool has given its connection back, and an asynchronous read
        // gives it back only once it resumes on the cooperative pool. Waiting on that pool's threads could take all
        // of them (two stores closing on two cores did) while those reads wait for one: wait on a thread of its own.
        let writer = self.writer
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue(label: "carnet.store.close").async {
                continuation.resume(with: Result { try writer.close() })
            }
        }
    }
}
