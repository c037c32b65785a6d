import CarnetStore
import CarnetStoreSQLite
import Foundation
import Synchronization

/// The PRAGMAs the store sets on its connections, read from its statement trace (writer and readers apart), so
/// the SQL floor's connections get exactly the same settings whatever the store's defaults become.
struct StoreSettings: Codable, Sendable {
    var writer: [String] = []
    var readers: [String] = []

    /// The settings that change performance; GRDB's own PRAGMAs (query_only, foreign_keys, ...) are left out.
    static let names = [
        "synchronous", "mmap_size", "cache_size", "wal_autocheckpoint", "temp_store", "cache_spill",
        "journal_size_limit", "page_size",
    ]

    private static let captured = Mutex<StoreSettings?>(nil)

    /// The captured settings; empty (SQLite's defaults) until ``capture(directory:)`` ran.
    static var current: StoreSettings { captured.withLock { $0 } ?? StoreSettings() }

    /// Opens a store on a scratch file, reads from it, and records the PRAGMAs each connection got. The store's
    /// set-up of a connection starts with `synchronous`; the writer is set up first, a reader last.
    static func capture(directory: String) async throws {
        let path = "\(directory)/settings-probe.sqlite"
        let remove = {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        remove()
        defer { remove() }
        let log = QueryPlans.StatementLog()
        var configuration = StoreConfiguration()
        configuration.statementTrace = { log.append($0) }
        let store = try SQLiteStore.open(path: path, configuration: configuration)
        _ = try await store.contactCount()
        try await store.close()
        var connections: [[String]] = []
        for pragma in log.drain().filter(isSetting) {
            if pragma.lowercased().contains("synchronous") || connections.isEmpty { connections.append([]) }
            connections[connections.count - 1].append(pragma)
        }
        let settings = StoreSettings(
            writer: connections.first ?? [], readers: connections.count > 1 ? connections.last! : [])
        captured.withLock { $0 = settings }
    }

    private static func isSetting(_ sql: String) -> Bool {
        let text = sql.lowercased()
        return text.hasPrefix("pragma ") && text.contains("=") && names.contains { text.contains($0) }
    }
}
