import CarnetStore
import Foundation
import GRDB
import Synchronization

#if canImport(GRDBSQLite)
    import GRDBSQLite
#else
    import SQLite3
#endif

/// Identifies one SQL text among the statements a process prepares, so a connection finds its prepared statement
/// by an integer rather than by hashing the text. Never reused: a key made for a text that is dropped from its
/// cache cannot come to name another.
struct StatementKey: Hashable, Sendable {
    let value: Int

    private static let next = Atomic(0)

    /// A key no other text has.
    static func make() -> StatementKey { StatementKey(value: next.add(1, ordering: .relaxed).newValue) }
}

/// One of ``PointReaders``' connections: the GRDB queue and, for single-statement reads, its SQLite handle with the
/// statements prepared on it.
///
/// Only the holder of the connection's slot in the free list touches it, one thread at a time, which is what
/// `@unchecked Sendable` stands for here.
final class PointConnection: @unchecked Sendable {
    let queue: DatabaseQueue
    private let handle: SQLiteConnection
    private var statements: [StatementKey: SQLiteStatement] = [:]
    /// Whether reads go through a memory map, and the reads since that was last checked.
    private var mapped: Bool
    private var readsSinceMapCheck = 0
    /// Key sets come from clients' selections; past this many the statements are finalized and prepared again.
    private static let statementLimit = 64

    init(_ queue: DatabaseQueue, memoryMap: MemoryMapPolicy) throws {
        self.queue = queue
        guard let handle = queue.inDatabase({ $0.sqliteConnection }) else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "The point reader has no connection")
        }
        self.handle = handle
        mapped = memoryMap.maps(fileBytes: Self.fileBytes(handle))
    }

    /// Whether no transaction is open on it (every read's ends before it is given back).
    var isIdle: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// Maps the file once it has grown past the size under which reading connections open unmapped, checked every
    /// 1,024 reads: a book that grows while it stays open (an import into a new book) gets mapped reads after all.
    func mapIfGrown(_ memoryMap: MemoryMapPolicy) {
        guard !mapped, memoryMap.bytes > 0 else { return }
        readsSinceMapCheck += 1
        guard readsSinceMapCheck >= 1_024 else { return }
        readsSinceMapCheck = 0
        guard memoryMap.maps(fileBytes: Self.fileBytes(handle)),
            sqlite3_exec(handle, "PRAGMA mmap_size = \(memoryMap.bytes)", nil, nil, nil) == SQLITE_OK
        else { return }
        mapped = true
    }

    /// The size of the connection's database file (0 if it cannot be read).
    static func fileBytes(_ handle: SQLiteConnection) -> Int {
        guard let name = sqlite3_db_filename(handle, "main"), name.pointee != 0 else { return 0 }
        var info = stat()
        return stat(name, &info) == 0 ? Int(info.st_size) : 0
    }

    /// The statement for `sql`, reset and with no bindings, prepared on first use.
    func statement(_ key: StatementKey, sql: String) throws -> SQLiteStatement {
        if let statement = statements[key] { return statement }
        if statements.count >= Self.statementLimit { finalizeAll() }
        var statement: SQLiteStatement?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw DatabaseError.last(on: handle) }
        statements[key] = statement
        return statement
    }

    private func finalizeAll() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements.removeAll()
    }

    func close() throws {
        finalizeAll()
        try queue.close()
    }
}

/// When a reading connection maps its file (``StoreConfiguration/memoryMapBytes`` and
/// ``StoreConfiguration/memoryMapMinimumFileBytes``).
struct MemoryMapPolicy: Sendable {
    var bytes: Int
    var minimumFileBytes: Int

    init(_ configuration: StoreConfiguration) {
        bytes = max(0, configuration.memoryMapBytes)
        minimumFileBytes = configuration.memoryMapMinimumFileBytes
    }

    func maps(fileBytes: Int) -> Bool { bytes > 0 && fileBytes >= minimumFileBytes }
}
