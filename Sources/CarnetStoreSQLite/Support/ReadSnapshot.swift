import CarnetStore
import GRDB
import Synchronization

/// One state of a book for several reads (``SQLiteStore/withConsistentReads(_:)``): one connection, held for the
/// duration, with one read transaction that the first read opens (a WAL reader sees the commits before its
/// first statement, and none after).
///
/// The reads of the task that set it (``current``) run on it one at a time, as an executor's do. A task started
/// inside it inherits ``current``, so a read after ``end()`` goes the usual way.
final class ReadSnapshot: @unchecked Sendable {
    @TaskLocal static var current: ReadSnapshot?

    /// The point connections of the book it reads.
    let readers: PointReaders
    private let connection: PointConnection
    /// The slot it took, or `nil` for a connection of its own (every slot was taken), closed at the end.
    private let slot: Int?
    private let state = Mutex(State())

    private struct State {
        var begun = false
        var ended = false
    }

    /// Takes a connection; `nil` when none could open.
    init?(_ readers: PointReaders) {
        self.readers = readers
        if let (index, connection) = readers.take() {
            (self.slot, self.connection) = (index, connection)
        } else if let connection = try? readers.openConnection() {
            (self.slot, self.connection) = (nil, connection)
        } else {
            return nil
        }
    }

    /// Whether reads of the book with these connections run in it.
    func serves(_ readers: PointReaders?) -> Bool {
        readers === self.readers && !state.withLock { $0.ended }
    }

    /// Runs `body` in the snapshot, on the calling thread.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try connection.queue.unsafeRead { db in
            try begin(db)
            return try body(db)
        }
    }

    /// Runs `body` in the snapshot on the connection's queue while the caller suspends: for the unbounded reads,
    /// which would otherwise hold a thread of the cooperative pool.
    func suspendingRead<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        // On the connection's queue the task's values are not bound: the read allowance is carried over.
        let allowance = ReadAllowance.current
        return try await connection.queue.unsafeRead { [self] db in
            try begin(db)
            return try ReadAllowance.$current.withValue(allowance) { try body(db) }
        }
    }

    private func begin(_ db: Database) throws {
        guard !state.withLock({ $0.begun }) else { return }
        try db.beginTransaction(.deferred)
        state.withLock { $0.begun = true }
    }

    /// Ends the read transaction and gives the connection back.
    func end() {
        let begun = state.withLock { state -> Bool in
            state.ended = true
            return state.begun
        }
        if begun { try? connection.queue.unsafeRead { try $0.rollback() } }
        // A connection its rollback left in the transaction closes there rather than serve the next read.
        if let slot { readers.giveBack(slot) } else { try? connection.close() }
    }
}

extension SQLiteStore {
    /// Runs `body` with the book's reads in one snapshot (see ``ContactStore/withConsistentReads(_:)``).
    public func withConsistentReads<T>(_ body: () async throws -> T) async throws -> T {
        // In memory there are no point connections: one serial queue, reads as they come.
        guard let pointReaders, !(ReadSnapshot.current?.serves(pointReaders) ?? false),
            let snapshot = ReadSnapshot(pointReaders)
        else { return try await body() }
        defer { snapshot.end() }
        return try await ReadSnapshot.$current.withValue(snapshot) { try await body() }
    }
}
