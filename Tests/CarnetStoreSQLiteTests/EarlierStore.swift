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
            var transaction = try SaveTransaction(db: db, author: request.transactionAuthor)
            for operation in request.operations { _ = try transaction.apply(operation) }
            try rewrite(db)
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
