import Foundation
import GRDB
import Synchronization

/// Read-only connections of the store's own, for the bounded reads that run on the calling task (a contact by
/// id, a page, a name search).
///
/// `DatabasePool` hands out its readers through a dispatch barrier, a semaphore and a lock, builds a key path
/// per call, and runs `PRAGMA schema_version` before every read: together more than the point read itself.
/// These connections are taken from a free list under a mutex instead. There are as many as the cooperative
/// pool has threads, because only those run bounded reads; when all are busy (a synchronous caller on another
/// thread), the read goes to the pool as before. Migrations finish before the connections open, and SQLite
/// re-prepares statements itself if another process changes the schema later.
final class PointReaders: Sendable {
    private let connections: [DatabaseQueue]
    private let free: Mutex<[Int]>

    init(path: String, count: Int, configuration: Configuration) throws {
        var configuration = configuration
        configuration.readonly = true
        configuration.label = "carnet.point-reader"
        connections = try (0..<count).map { _ in try DatabaseQueue(path: path, configuration: configuration) }
        free = Mutex(Array(connections.indices))
    }

    /// Runs `body` on a free connection, or `fallback` when every connection is in use.
    func read<T>(_ body: (Database) throws -> T, otherwise fallback: () throws -> T) throws -> T {
        guard let index = free.withLock({ $0.popLast() }) else { return try fallback() }
        defer { free.withLock { $0.append(index) } }
        return try connections[index].unsafeRead(body)
    }

    /// Closes the connections; reads must have ended.
    func close() throws {
        for connection in connections { try connection.close() }
    }

    /// One per thread of the cooperative pool, which is where bounded reads run.
    static var defaultCount: Int { max(2, ProcessInfo.processInfo.activeProcessorCount) }
}
