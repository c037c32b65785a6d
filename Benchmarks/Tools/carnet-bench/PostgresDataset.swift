import CarnetStore
import CarnetStorePostgres
import CarnetStoreSQLite
import Foundation

/// A generated SQLite data set copied into a PostgreSQL database of its own (`carnet_bench_<size>`), so both
/// backends are timed on the same contacts, identifiers and history.
///
/// The copy is `StoreMigration.copy` (what `carnet migrate-store` runs: batched `unnest` inserts), from a data folder
/// whose admin book is a copy of the data set's file. It is made once and reused while the book holds `size`
/// contacts; a database that does not (an interrupted copy) is dropped and copied again. Only databases named
/// `carnet_bench_*` are ever created or dropped.
enum PostgresDataset {
    /// The database holding the copy of `dataset`, made if needed; its admin book is the data set's book.
    static func prepare(_ dataset: Dataset, baseURL: String, directory: String) async throws -> String {
        let name = "carnet_bench_\(dataset.info.size)"
        let url = try databaseURL(baseURL, name: name)
        if try exists(name, baseURL: baseURL) {
            if try await contactCount(url: url) == dataset.info.size {
                log("reusing PostgreSQL database \(name)")
                return url
            }
            log("PostgreSQL database \(name) does not hold \(dataset.info.size) contacts: copying again")
            try psql(baseURL, "DROP DATABASE \(name)")
        }
        try psql(baseURL, "CREATE DATABASE \(name)")
        let folder = "\(directory)/folder-\(dataset.info.size)"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: dataset.path, toPath: "\(folder)/\(DataFolder.adminBookFileName)")
        log("copying \(dataset.info.size) contacts into PostgreSQL database \(name)")
        let source = try await DataFolder.open(directory: folder)
        let target = try await PostgresBackend.open(try PostgresLocation(url: url))
        let seconds = try await Stopwatch.time {
            _ = try await StoreMigration.copy(from: source, to: target)
        }.seconds
        // The planner's statistics now, as autovacuum would make them a little later.
        try psql(url, "ANALYZE")
        log(String(format: "  copied in %.1f s", seconds))
        try await target.close()
        try await source.close()
        try? FileManager.default.removeItem(atPath: folder)
        return url
    }

    /// The admin's default book: the data set's contacts on either backend.
    static func adminBook(_ backend: any StoreBackend) async throws -> AddressBook {
        let admin = try await backend.admin()
        guard let id = admin.defaultBookID, let book = try await backend.catalog.book(id: id) else {
            throw StoreError(.recordDoesNotExist, "The admin has no default book.")
        }
        return book
    }

    private static func contactCount(url: String) async throws -> Int {
        let backend = try await PostgresBackend.open(try PostgresLocation(url: url))
        let count = try await backend.books.withStore(try await adminBook(backend)) { try await $0.contactCount() }
        try await backend.close()
        return count
    }

    /// `baseURL` with its database replaced by `name`.
    static func databaseURL(_ baseURL: String, name: String) throws -> String {
        guard var components = URLComponents(string: baseURL) else {
            throw StoreError(.validationFailed, "--database is not a URL")
        }
        components.path = "/" + name
        return components.string ?? baseURL
    }

    private static func exists(_ name: String, baseURL: String) throws -> Bool {
        try psql(baseURL, "SELECT 1 FROM pg_database WHERE datname = '\(name)'").contains("1")
    }

    /// Runs one statement with `psql` (libpq takes the URL, minus Carnet's own parameters such as `pool_size`).
    @discardableResult
    private static func psql(_ baseURL: String, _ sql: String) throws -> String {
        guard var components = URLComponents(string: baseURL) else {
            throw StoreError(.validationFailed, "--database is not a URL")
        }
        let libpq: Set<String> = ["sslmode", "sslrootcert", "connect_timeout"]
        components.queryItems = components.queryItems?.filter { libpq.contains($0.name) }
        if components.queryItems?.isEmpty == true { components.queryItems = nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", components.string ?? baseURL, "-v", "ON_ERROR_STOP=1", "-tAc", sql]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw StoreError(.storageFailure, "psql failed on: \(sql)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
