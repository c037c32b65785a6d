import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import GRDB
import Testing

@testable import CarnetStore
@testable import CarnetStoreSQLite

/// SQLite's failures reach callers as store codes, each caused for real: a lock held past the busy timeout, a
/// database at its size limit.
@Suite("Database errors as store codes")
struct DatabaseErrorTests {
    @Test("A write lock held past the busy timeout: UNAVAILABLE with a retry hint, nothing written")
    func busy() async throws {
        let fixture = try await StoreFixture(.onDiskWAL) { $0.busyTimeout = 0.2 }
        let store = try fixture.sqliteStore
        // Another connection (another process, as far as SQLite knows) takes the write lock and keeps it, on a
        // thread of its own, until the save has given up.
        let other = try DatabaseQueue(path: try #require(fixture.databasePath))
        let (locked, release, released) = (
            DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)
        )
        OffPool.run {
            try? other.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                locked.signal()
                release.wait()
                try db.execute(sql: "ROLLBACK")
            }
            released.signal()
        }
        await Self.wait(for: locked)
        let error = await #expect(throws: StoreError.self) { try await store.add([Make.person("Anna", "Busy")]) }
        #expect(error?.code == .unavailable)
        #expect(error?.retryAfter == .seconds(1))
        release.signal()
        await Self.wait(for: released)
        #expect(try await store.contacts(ContactFetchRequest(keysToFetch: [])).contacts.isEmpty)
        // The lock gone, the same save goes through.
        try await store.add([Make.person("Anna", "Busy")])
        try other.close()
    }

    @Test(
        "A database at its size limit: STORAGE_FULL, nothing written, and the store goes on",
        arguments: StoreKind.sqlite)
    func full(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let store = try fixture.sqliteStore
        try await store.add([Make.person("Before", "Full")])
        // The writer may not grow the file past its current pages: SQLite's own SQLITE_FULL.
        try await store.writer.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        }
        let bulk = (0..<20).map { _ in
            var contact = Contact()
            contact.givenName = "Too big"
            contact.note = String(repeating: "n", count: 60_000)
            return contact
        }
        let error = await #expect(throws: StoreError.self) { try await store.add(bulk) }
        #expect(error?.code == .storageFull)
        let names = try await store.contacts(ContactFetchRequest(keysToFetch: [.givenName])).contacts.map(\.givenName)
        #expect(names == ["Before"])
    }

    @Test(
        "A read whose task is cancelled mid-statement ends with CancellationError, not SQLite's interrupt code",
        // A hang bound: the whole suite beside a CI build once kept this test from its turn for over two minutes.
        .timeLimit(.minutes(10)))
    func cancelledRead() async throws {
        let fixture = try await StoreFixture(.onDiskWAL)
        let store = try fixture.sqliteStore
        let (started, signal) = AsyncStream<Void>.makeStream()
        // Endless rows unless interrupted, stepped straight through SQLite as the loaders do. The signal comes once
        // the statement runs: SQLite forgets an interrupt that arrives while no statement does.
        let reading = Task {
            try await store.databaseRead { db in
                let statement = try db.makeStatement(
                    sql: "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT x FROM n")
                let rows = SQLiteSteppedRows(statement.sqliteStatement)
                var count = 0
                while try rows.next() != nil {
                    count += 1
                    if count == 1 { signal.yield() }
                }
                return count
            }
        }
        for await _ in started { break }
        reading.cancel()
        let outcome = await reading.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        // The store goes on.
        try await store.add([Make.person("After", "Cancel")])
        #expect(try await store.contacts(ContactFetchRequest(keysToFetch: [])).contacts.count == 1)
    }

    /// Waits for a semaphore without holding a thread of the cooperative pool.
    static func wait(for semaphore: DispatchSemaphore) async {
        await OffPool.wait(for: semaphore)
    }

    @Test("I/O and damage codes are STORAGE_FAILURE; store errors and others pass through")
    func mapping() {
        for code in [ResultCode.SQLITE_IOERR, .SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_READONLY, .SQLITE_CANTOPEN] {
            #expect((StoreError.mapped(DatabaseError(resultCode: code)) as? StoreError)?.code == .storageFailure)
        }
        #expect((StoreError.mapped(DatabaseError(resultCode: .SQLITE_LOCKED)) as? StoreError)?.code == .unavailable)
        let conflict = StoreError(.conflict, "x")
        #expect(StoreError.mapped(conflict) as? StoreError == conflict)
        #expect(StoreError.mapped(DatabaseError(resultCode: .SQLITE_MISUSE)) is DatabaseError)
        #expect(StoreError.mapped(DatabaseError(resultCode: .SQLITE_INTERRUPT)) is CancellationError)
    }
}
