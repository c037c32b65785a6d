import CarnetStore
import CarnetStoreSQLite
import Foundation
import GRDB

/// Our own connections to the store's database file, for the hand-written SQL floor and for inspection.
enum RawDatabase {
    static func open(path: String) throws -> DatabasePool {
        NameIndexSQL.reset()
        var config = Configuration()
        config.busyMode = .timeout(10)
        // The store's connection settings (durability, memory map, page cache, checkpoints), so the SQL floor
        // differs from Carnet by the code only.
        let settings = StoreSettings.current
        config.prepareDatabase { db in
            for pragma in db.configuration.readonly ? settings.readers : settings.writer { try db.execute(sql: pragma) }
        }
        return try DatabasePool(path: path, configuration: config)
    }

    /// The schema's SQL, to tell whether a saved database was made by the current store.
    static func schema(path: String) throws -> String {
        let pool = try open(path: path)
        defer { try? pool.close() }
        return try pool.read { db in
            try String.fetchAll(db, sql: "SELECT name || ':' || ifnull(sql, '') FROM sqlite_master ORDER BY name")
                .joined(separator: "\n")
        }
    }

    /// The schema a new store creates now.
    static func currentSchema(directory: String) async throws -> String {
        let path = "\(directory)/schema-probe.sqlite"
        let remove = {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        remove()
        defer { remove() }
        try await SQLiteStore.open(path: path).close()
        return try schema(path: path)
    }

    static func currentPosition(path: String) async throws -> Int64 {
        let pool = try open(path: path)
        defer { try? pool.close() }
        return try await pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'changeEvent'") ?? 0
        }
    }

    static func checkpoint(path: String) async throws {
        let pool = try open(path: path)
        defer { try? pool.close() }
        try await pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    static func sqliteVersion(_ reader: any DatabaseReader) throws -> String {
        try reader.read { db in try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? "?" }
    }
}
