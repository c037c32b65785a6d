import CarnetStoreTestSupport
import Foundation
import GRDB

@testable import CarnetStore
@testable import CarnetStoreSQLite

/// A database left at an earlier migration and filled through the save path, for the tests of the migrations
/// after it.
struct EarlierStore {
    let kind: StoreKind
    let writer: any DatabaseWriter
    let path: String
    let configuration = StoreConfiguration()

    /// - Parameter rewrite: runs in the same transaction after the saves, to put rows the way older code wrote them.
    init(
        _ kind: StoreKind, at version: String, directory: URL, request: SaveRequest,
        rewrite: (Database) throws -> Void = { _ in }
    ) throws {
        self.kind = kind
        path = directory.appendingPathComponent("\(version).sqlite").path
        let database = SQLiteStore.makeDatabaseConfiguration(configuration)
        switch kind {
        case .inMemory: writer = try DatabaseQueue(configuration: database)
        case .onDiskWAL, .postgres: writer = try DatabasePool(path: path, configuration: database)
        }
        try Migrations.migrator.migrate(writer, upTo: version)
        try writer.write { db in
            // Today's save code looks up links (v9); before v9 a store has none, which an empty stand-in says.
            let standIn = try !db.tableExists("contactLink")
            if standIn {
                try db.execute(sql: "CREATE TEMP TABLE contactLink (contactRowid INTEGER PRIMARY KEY, unifiedId TEXT)")
            }
            var transaction = try SaveTransaction(db: db, author: request.transactionAuthor)
            for operation in request.operations { _ = try transaction.apply(operation) }
            try rewrite(db)
            if standIn { try db.execute(sql: "DROP TABLE temp.contactLink") }
        }
    }

    /// Opens it as a `SQLiteStore`, which runs the later migrations.
    func open() throws -> SQLiteStore {
        switch kind {
        case .inMemory:
            guard let queue = writer as? DatabaseQueue else { throw StoreError(.storageFailure, "not in memory") }
            return try SQLiteStore(writer: queue, configuration: configuration)
        case .onDiskWAL, .postgres:
            try writer.close()
            return try SQLiteStore.open(path: path, configuration: configuration)
        }
    }
}
