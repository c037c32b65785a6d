import CarnetStoreTestSupport
import Foundation
import GRDB
import Testing

@testable import CarnetStore
@testable import CarnetStoreSQLite

#if canImport(GRDBSQLite)
    import GRDBSQLite
#else
    import SQLite3
#endif

/// The point readers' own prepared statements, run through SQLite's API (a contact by id).
@Suite("Point reader statements")
struct PointStatementTests {
    static func readers(_ fixture: StoreFixture, direct: Bool = true) throws -> PointReaders {
        try PointReaders(
            path: try #require(fixture.databasePath), count: 1, configuration: Configuration(),
            memoryMap: MemoryMapPolicy(StoreConfiguration()), direct: direct)
    }

    /// Column 0 of every row of `sql` (one text argument), through the direct path; `-1` when it fell back.
    static func texts(_ readers: PointReaders, _ key: StatementKey, _ sql: String, _ argument: String) throws
        -> [String]
    {
        try readers.read(
            statement: key, sql: sql,
            { statement in
                let rows = SQLiteTextQuery(statement, argument: argument)
                var texts: [String] = []
                while let columns = try rows.next() { texts.append(columns.string(0)) }
                return texts
            }, otherwise: { ["-1"] })
    }

    @Test("A statement that stops after its first row ends its read: a TRUNCATE checkpoint is not kept waiting")
    func earlyStopEndsTheRead() async throws {
        let fixture = try await StoreFixture(.onDiskWAL)
        _ = try await fixture.sqliteStore.add([Make.person("Ada", "Lovelace"), Make.person("Alan", "Turing")])
        let readers = try Self.readers(fixture)
        let first = try readers.read(
            statement: StatementKey.make(), sql: "SELECT id FROM contact WHERE ?1 = ?1",
            { statement in
                try SQLiteTextQuery(statement, argument: "x").next()?.string(0)
            }, otherwise: { nil })
        #expect(first != nil)
        let (busy, _, _) = try await fixture.sqliteStore.writer.writeWithoutTransaction { db in
            try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)").map {
                ($0[0] as Int, $0[1] as Int, $0[2] as Int)
            }!
        }
        #expect(busy == 0)
        try readers.close()
    }

    @Test("Past the statement limit the connection finalizes and prepares again; every key still reads its own SQL")
    func manyStatements() async throws {
        let fixture = try await StoreFixture(.onDiskWAL)
        let readers = try Self.readers(fixture)
        let keys = (0..<100).map { _ in StatementKey.make() }
        for round in 0..<2 {
            for (index, key) in keys.enumerated() {
                #expect(try Self.texts(readers, key, "SELECT ?1 || '-\(index)'", "r\(round)") == ["r\(round)-\(index)"])
            }
        }
        try readers.close()
    }

    @Test("SQL that does not prepare throws SQLite's error; the connection goes back to the free list")
    func prepareError() async throws {
        let fixture = try await StoreFixture(.onDiskWAL)
        let readers = try Self.readers(fixture)
        #expect(throws: DatabaseError.self) {
            try Self.texts(readers, StatementKey.make(), "SELECT nope FROM contact WHERE id = ?", "x")
        }
        #expect(try Self.texts(readers, StatementKey.make(), "SELECT ?", "again") == ["again"])
        try readers.close()
    }

    @Test("A prepared statement follows a schema change made by another connection")
    func schemaChange() async throws {
        let fixture = try await StoreFixture(.onDiskWAL)
        let contact = Make.person("Ada", "Lovelace")
        _ = try await fixture.sqliteStore.add([contact])
        let readers = try Self.readers(fixture)
        let key = StatementKey.make()
        let sql = "SELECT * FROM contact WHERE id = ?"
        func columns() throws -> Int32 {
            try readers.read(
                statement: key, sql: sql,
                { statement in
                    _ = try SQLiteTextQuery(statement, argument: contact.identifier).next()
                    return sqlite3_column_count(statement)
                }, otherwise: { -1 })
        }
        let before = try columns()
        let other = try DatabaseQueue(path: try #require(fixture.databasePath))
        try await other.write { db in try db.execute(sql: "ALTER TABLE contact ADD COLUMN scratch TEXT") }
        #expect(try columns() == before + 1)
        try other.close()
        try readers.close()
    }

    @Test("With statement tracing on, reads take GRDB's path, which reports them")
    func tracedStoreFallsBack() async throws {
        let fixture = try await StoreFixture(.onDiskWAL)
        let readers = try Self.readers(fixture, direct: false)
        #expect(try Self.texts(readers, StatementKey.make(), "SELECT ?", "x") == ["-1"])
        try readers.close()

        let traced = try await StoreFixture(.onDiskWAL, traced: true)
        let contact = Make.person("Ada", "Lovelace")
        _ = try await traced.store.add([contact])
        traced.statements.reset()
        let fetched = try await traced.store.contact(withIdentifier: contact.identifier, keysToFetch: [.givenName])
        #expect(fetched.givenName == "Ada")
        #expect(traced.statements.all.contains { $0.contains("c.givenName") && $0.contains("WHERE c.id = ") })
    }
}
