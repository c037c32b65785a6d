import CarnetStore
import Foundation
import GRDB
import Synchronization

#if canImport(GRDBSQLite)
    import GRDBSQLite
#else
    import SQLite3
#endif

/// Read-only connections of the store's own, for the bounded reads that run on the calling task (a contact by
/// id, a page, a name search).
///
/// `DatabasePool` hands out its readers through a dispatch barrier, a semaphore and a lock, builds a key path
/// per call, and runs `PRAGMA schema_version` before every read: together more than the point read itself.
/// These connections are taken from a free list under a mutex instead, as many as ``defaultCount``; when all
/// are busy, the read goes to the pool as before. Migrations finish before the connections open, and SQLite
/// re-prepares statements itself if another process changes the schema later.
///
/// Only the first connection opens with the store; the others open on their first read: a server of many address
/// books opens a book for one request, and most books never need more than one reader.
final class PointReaders: Sendable {
    /// A connection, once opened. A slot is used only by whoever took its index from the free list.
    private final class Slot: Sendable {
        let connection = Mutex<PointConnection?>(nil)
    }

    private let slots: [Slot]
    private let free: Mutex<[Int]>
    /// Set by ``close()``: no connection is taken or opened after it, so a read that comes late goes to the writer,
    /// which answers that the store is closed, instead of running on a closed (or newly opened, leaked) connection.
    private let closed = Atomic<Bool>(false)
    /// Whether single-statement reads may run through SQLite's API directly; not when statements are traced,
    /// since only GRDB reports them.
    private let direct: Bool
    private let path: String
    private let configuration: Configuration
    private let memoryMap: MemoryMapPolicy

    init(path: String, count: Int, configuration: Configuration, memoryMap: MemoryMapPolicy, direct: Bool) throws {
        var configuration = configuration
        configuration.readonly = true
        configuration.label = "carnet.point-reader"
        // A snapshot (``ReadSnapshot``) keeps its read transaction open across accesses, which GRDB otherwise
        // stops with a precondition; every other read here closes its transaction before it returns.
        configuration.allowsUnsafeTransactions = true
        self.configuration = configuration
        self.path = path
        self.memoryMap = memoryMap
        slots = (0..<max(1, count)).map { _ in Slot() }
        // The first (open) connection is taken first: a book read by one request at a time needs no other.
        free = Mutex(Array(slots.indices.reversed()))
        self.direct = direct
        let first = try openConnection()
        slots[0].connection.withLock { $0 = first }
    }

    /// Runs `body` on a free connection, or `fallback` when every connection is in use.
    func read<T>(_ body: (Database) throws -> T, otherwise fallback: () throws -> T) throws -> T {
        try withFreeConnection({ try $0.queue.unsafeRead(body) }, otherwise: fallback)
    }

    /// ``read(_:otherwise:)`` for a caller on the cooperative pool: the fallback suspends instead of blocking.
    func read<T>(_ body: (Database) throws -> T, otherwise fallback: () async throws -> T) async throws -> T {
        if let value = try withFreeConnection({ try Taken($0.queue.unsafeRead(body)) }, otherwise: { nil }) {
            return value.value
        }
        return try await fallback()
    }

    /// ``read(statement:sql:_:otherwise:)`` for a caller on the cooperative pool: the fallback suspends instead of
    /// blocking.
    func read<T>(
        statement key: StatementKey, sql: String, _ body: (SQLiteStatement) throws -> T,
        otherwise fallback: () async throws -> T
    ) async throws -> T {
        if let value = try read(statement: key, sql: sql, { try Taken(body($0)) }, otherwise: { nil }) {
            return value.value
        }
        return try await fallback()
    }

    /// A value read on a point connection, told apart from none (a read whose value is itself optional).
    private struct Taken<T> {
        let value: T
        init(_ value: T) { self.value = value }
    }

    /// Runs `body` with this connection's prepared statement for `sql`, outside a transaction (one statement is
    /// its own snapshot; it is reset afterwards), or `fallback` when every connection is in use or statements are traced.
    ///
    /// The GRDB path around a point read (its queue, its statement cache keyed by the SQL text, its cursor) cost
    /// twice the read: a contact by id is the request a server gets most.
    /// - Parameter key: identifies `sql` among the statements this process prepares (``StatementKey``).
    func read<T>(
        statement key: StatementKey, sql: String, _ body: (SQLiteStatement) throws -> T,
        otherwise fallback: () throws -> T
    ) throws -> T {
        guard direct else { return try fallback() }
        return try withFreeConnection(
            { connection in
                let statement = try connection.statement(key, sql: sql)
                // Reset even if `body` stopped early: a statement not run to its end keeps its read (and its snapshot) open.
                defer { sqlite3_reset(statement) }
                return try body(statement)
            }, otherwise: fallback)
    }

    /// Runs `body` with a connection taken from the free list and put back after, or `fallback` when none is free.
    private func withFreeConnection<T>(_ body: (PointConnection) throws -> T, otherwise fallback: () throws -> T) throws
        -> T
    {
        guard let (index, connection) = take() else { return try fallback() }
        defer { giveBack(index) }
        return try body(connection)
    }

    /// Takes a free connection until ``giveBack(_:)``, or `nil` when none is free (or it cannot open now: the file
    /// moved under a running store).
    func take() -> (index: Int, connection: PointConnection)? {
        guard !closed.load(ordering: .acquiring), let index = free.withLock({ $0.popLast() }) else { return nil }
        let connection = slots[index].connection.withLock { slot -> PointConnection? in
            if let open = slot { return open }
            slot = try? openConnection()
            return slot
        }
        guard let connection else {
            giveBack(index)
            return nil
        }
        connection.mapIfGrown(memoryMap)
        return (index, connection)
    }

    /// Puts back a connection ``take()`` gave. One still in a transaction (its rollback failed) closes instead,
    /// and its slot opens a new one when next taken: no later read may run in its old state.
    func giveBack(_ index: Int) {
        slots[index].connection.withLock { connection in
            guard let open = connection, !open.isIdle else { return }
            try? open.close()
            connection = nil
        }
        free.withLock { $0.append(index) }
    }

    /// A new connection to the book: a slot's, or one of a snapshot's own when every slot is taken (closed by its
    /// user).
    func openConnection() throws -> PointConnection {
        guard !closed.load(ordering: .acquiring) else {
            throw StoreError.storeClosed
        }
        return try PointConnection(DatabaseQueue(path: path, configuration: configuration), memoryMap: memoryMap)
    }

    /// How many connections are open.
    var openCount: Int { slots.reduce(0) { $0 + ($1.connection.withLock { $0 == nil } ? 0 : 1) } }

    /// Closes the connections that opened; reads must have ended.
    func close() throws {
        closed.store(true, ordering: .releasing)
        for slot in slots {
            try slot.connection.withLock { connection in
                try connection?.close()
                connection = nil
            }
        }
    }

    /// One per thread of the cooperative pool, which is where bounded reads run, and room for the snapshots of the
    /// queries in flight (``ReadSnapshot``), which hold theirs for a whole query, suspensions included; each opens
    /// on its first use. A snapshot that finds every slot taken opens a connection of its own and closes it after:
    /// with four slots and 16 pages in flight on one book, those opens (each parses the schema) cost a fifth of
    /// its throughput (2,240-2,850 pages/s with 16 slots against 1,900-2,330).
    static var defaultCount: Int { max(16, 2 * ProcessInfo.processInfo.activeProcessorCount) }
}
