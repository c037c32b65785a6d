import CSQLiteSettings
import CarnetStore
import Foundation
import GRDB
import Synchronization

#if canImport(GRDBSQLite)
    import GRDBSQLite
#else
    import SQLite3
#endif

/// The Carnet record store: contacts, groups and containers, atomic save requests, and change history.
///
/// Open one store per database file per process and share it: it is `Sendable`, reads run concurrently and
/// writes are serialized. On disk the database runs in WAL mode, so other processes (a CLI import while the
/// server runs) can write the same file; their commits reach ``changes()`` subscribers too.
///
/// ```swift
/// let store = try SQLiteStore.open(path: "carnet-data/carnet.sqlite")
/// var request = SaveRequest(transactionAuthor: "importer")
/// var contact = Contact()
/// contact.givenName = "Anna"
/// request.add(contact)
/// let result = try await store.execute(request)
/// ```
public struct SQLiteStore: ContactStore {
    let database: StoreDatabase
    /// The on-disk store's own read-only connections for bounded reads; `nil` in memory.
    let pointReaders: PointReaders?
    /// The settings the store was opened with.
    public let configuration: StoreConfiguration
    let notifier: ChangeNotifier
    let maintenance: MaintenanceClock
    /// Identifies this database in history tokens, so a token from another store is recognised as foreign.
    let storeID: String

    /// The GRDB database, opened now if the store has not needed it yet.
    var writer: any DatabaseWriter {
        get throws { try database.writer() }
    }

    /// Opens (creating if needed) the store in a SQLite file, in WAL mode.
    ///
    /// A file already at the current schema opens with one read-only connection; the writer opens on the first
    /// write or unbounded read (``StoreDatabase``).
    public static func open(path: String, configuration: StoreConfiguration = StoreConfiguration()) throws
        -> SQLiteStore
    {
        let databaseConfiguration = makeDatabaseConfiguration(configuration)
        let openPool: @Sendable () throws -> any DatabaseWriter = {
            try DatabasePool(path: path, configuration: databaseConfiguration)
        }
        let direct = configuration.statementTrace == nil
        if FileManager.default.fileExists(atPath: path),
            let readers = try? PointReaders(
                path: path, count: PointReaders.defaultCount, configuration: databaseConfiguration,
                memoryMap: MemoryMapPolicy(configuration), direct: direct),
            let storeID = try? currentStoreID(readers)
        {
            return SQLiteStore(
                database: StoreDatabase(path: path, open: openPool), pointReaders: readers, storeID: storeID,
                configuration: configuration)
        }
        let pool = try openPool()
        try Migrations.migrator.migrateAlongsideOthers(pool)
        let storeID = try pool.read { db in try currentStoreID(db) }
        guard let storeID else { throw StoreError(.storageFailure, "The database has no store identifier.") }
        let readers = try PointReaders(
            path: path, count: PointReaders.defaultCount, configuration: databaseConfiguration,
            memoryMap: MemoryMapPolicy(configuration), direct: direct)
        return SQLiteStore(
            database: StoreDatabase(pool), pointReaders: readers, storeID: storeID, configuration: configuration)
    }

    /// A store that lives in memory only, for tests and tools.
    public static func inMemory(configuration: StoreConfiguration = StoreConfiguration()) throws -> SQLiteStore {
        return try SQLiteStore(
            writer: DatabaseQueue(configuration: makeDatabaseConfiguration(configuration)), configuration: configuration
        )
    }

    /// Wraps an open in-memory database, migrating its schema to the current version.
    init(writer: DatabaseQueue, configuration: StoreConfiguration) throws {
        try Migrations.migrator.migrate(writer)
        guard let storeID = try writer.read({ db in try Self.currentStoreID(db) }) else {
            throw StoreError(.storageFailure, "The database has no store identifier.")
        }
        self.init(database: StoreDatabase(writer), pointReaders: nil, storeID: storeID, configuration: configuration)
    }

    private init(
        database: StoreDatabase, pointReaders: PointReaders?, storeID: String, configuration: StoreConfiguration
    ) {
        self.database = database
        self.pointReaders = pointReaders
        self.storeID = storeID
        self.configuration = configuration
        self.notifier = ChangeNotifier.sqlite(
            database: database, storeID: storeID, interval: configuration.externalChangePollInterval)
        self.maintenance = MaintenanceClock()
    }

    /// The store's identifier if the schema is current: a file that still needs a migration is opened with its
    /// writer, which migrates it.
    private static func currentStoreID(_ db: Database) throws -> String? {
        guard try Migrations.migrator.hasCompletedMigrations(db) else { return nil }
        return try String.fetchOne(db, sql: "SELECT value FROM storeInfo WHERE key = 'storeId'")
    }

    /// The same through the point reader's own statement: GRDB's fetches (its statement authorizer, regions and
    /// row decoding) cost about as much as the rest of opening a book for a read. Any failure (no migrations
    /// table yet) means the writer opens the file.
    private static func currentStoreID(_ readers: PointReaders) throws -> String? {
        let sql = """
            SELECT (SELECT group_concat(identifier, char(10)) FROM grdb_migrations),
                   (SELECT value FROM storeInfo WHERE key = 'storeId')
            """
        let known = Set(Migrations.migrator.migrations)
        return try readers.read(
            statement: storeIDStatement, sql: sql,
            { statement -> String? in
                guard sqlite3_step(statement) == SQLITE_ROW else { return nil }
                let columns = SQLiteColumns(statement)
                let applied = Set(columns.string(0).split(separator: "\n").map(String.init))
                guard known.isSubset(of: applied), !columns.isNull(1) else { return nil }
                return columns.string(1)
            }, otherwise: { try readers.read({ db in try currentStoreID(db) }, otherwise: { nil }) })
    }

    private static let storeIDStatement = StatementKey.make()

    /// Sets a pragma through SQLite itself: GRDB's statement preparation (its authorizer, regions) costs more than
    /// the pragma, on every connection a book opens.
    private static func pragma(_ db: Database, _ text: String) throws {
        guard let handle = db.sqliteConnection else { return }
        guard sqlite3_exec(handle, "PRAGMA \(text)", nil, nil, nil) == SQLITE_OK else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: sqlite3_extended_errcode(handle)),
                message: String(cString: sqlite3_errmsg(handle)))
        }
    }

    /// Whether SQLite counts its allocations, which makes every allocation take one global mutex: off from the
    /// moment the binary loads (CSQLiteSettings), whatever opens the first connection.
    static var memoryStatisticsEnabled: Bool { carnet_sqlite_memory_statistics_enabled() != 0 }

    /// The single place where connections are set up.
    static func makeDatabaseConfiguration(_ settings: StoreConfiguration) -> Configuration {
        var config = Configuration()
        config.maximumReaderCount = StoreDatabase.maximumReaders
        config.busyMode = .timeout(settings.busyTimeout)
        config.foreignKeysEnabled = true
        // Statement arguments are contact data: keep them out of error messages and logs.
        config.publicStatementArguments = false
        let trace = settings.statementTrace
        let (mmap, cache) = (max(0, settings.memoryMapBytes), max(0, settings.pageCacheBytes / 1024))
        let mapPolicy = MemoryMapPolicy(settings)
        config.prepareDatabase { db in
            if let trace { db.trace { trace($0.expandedDescription) } }
            // WAL with NORMAL survives process crashes (SIGKILL) whole; only a power cut can lose the last commits.
            try pragma(db, "synchronous = NORMAL")
            // The writer always maps: it is opened only for books being written, and an import grows a new file.
            let maps = mmap > 0 && (!db.configuration.readonly || mapPolicy.maps(fileBytes: fileSize(of: db)))
            let mapped = maps ? mmap : 0
            try pragma(db, "mmap_size = \(mapped)")
            // The writer gets eight times the readers' cache: inserts into name-ordered indexes land all over them.
            try pragma(db, "cache_size = -\(db.configuration.readonly ? cache : cache * 8)")
            if !db.configuration.readonly {
                // Checkpoint every 32 MB of WAL rather than 4 MB: fewer, larger copies during imports.
                try pragma(db, "wal_autocheckpoint = 8192")
            }
        }
        return config
    }

    /// The file descriptors the store may hold, for ``BookStores``' budget: two per connection (the database and
    /// its WAL) and the shared-memory index, which SQLite opens once per file in a process. The writer's pool is
    /// counted at its most readers, since GRDB opens them as reads need them.
    var fileDescriptors: Int {
        let pool = database.isOpen ? 1 + StoreDatabase.maximumReaders : 0
        return 1 + 2 * ((pointReaders?.openCount ?? 0) + pool)
    }

    /// The path of the database file, or `nil` in memory.
    public var path: String? { database.path == ":memory:" ? nil : database.path }

    /// Releases the database; the store must not be used afterwards.
    public func close() async throws {
        await notifier.finishAll()
        try pointReaders?.close()
        guard let writer = database.takeForClosing() else { return }
        // GRDB's close waits until every read of the pool has given its connection back, and an asynchronous read
        // gives it back only once it resumes on the cooperative pool. Waiting on that pool's threads could take all
        // of them (two stores closing on two cores did) while those reads wait for one: wait on a thread of its own.
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue(label: "carnet.store.close").async {
                continuation.resume(with: Result { try Self.checkpointAndClose(writer) })
            }
        }
    }

    /// Moves the WAL's pages into the database and empties it before closing. GRDB closes the writer before its
    /// readers, so SQLite's own checkpoint at the last close never ran (a read-only connection cannot): a book's
    /// WAL only grew, and the next process to open it rebuilt the WAL index by reading all of it.
    static func checkpointAndClose(_ writer: any DatabaseWriter) throws {
        if writer is DatabasePool {
            // Best effort, and brief: a truncating checkpoint waits for readers of older snapshots (another
            // process's), and a close must not wait the busy timeout for them; a partial one is harmless.
            _ = try? writer.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA busy_timeout = 100")
                try db.checkpoint(.truncate)
            }
        }
        try writer.close()
    }

    /// The size of the connection's main database file, 0 in memory or if it cannot be read.
    private static func fileSize(of db: Database) -> Int {
        db.sqliteConnection.map(PointConnection.fileBytes) ?? 0
    }
}
