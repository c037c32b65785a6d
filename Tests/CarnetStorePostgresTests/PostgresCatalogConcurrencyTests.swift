import CarnetStore
import CarnetStoreTestSupport
import Logging
import PostgresNIO
import Testing

@testable import CarnetStorePostgres

/// What holds across instances: each test opens several catalogs (several pools, as several Carnet instances
/// would) on one database.
@Suite(
    "PostgreSQL catalog across instances",
    .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
struct PostgresCatalogConcurrencyTests {
    /// Runs `count` attempts at once: for each, nil when it succeeded, else its refusal's code.
    static func outcomes(of count: Int, _ attempt: @escaping @Sendable (Int) async throws -> Void) async
        -> [StoreError.Code?]
    {
        await withTaskGroup(of: StoreError.Code?.self) { group in
            for index in 0..<count {
                group.addTask {
                    do {
                        try await attempt(index)
                        return nil
                    } catch let error as StoreError {
                        return error.code
                    } catch {
                        return .storageFailure
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// Opens `count` catalogs on one new database at once, runs `body`, closes them.
    func withInstances(
        _ count: Int, configure: (inout StoreConfiguration) -> Void = { _ in },
        _ body: ([PostgresCatalog], PostgresLocation) async throws -> Void
    ) async throws {
        var configuration = StoreConfiguration()
        configure(&configuration)
        let settings = configuration
        try await PostgresTestDatabase.with { location in
            let catalogs = try await withThrowingTaskGroup(of: PostgresCatalog.self) { group in
                for _ in 0..<count {
                    group.addTask { try await PostgresCatalog.open(location, configuration: settings) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            do {
                try await body(catalogs, location)
            } catch {
                for catalog in catalogs { try? await catalog.close() }
                throw error
            }
            for catalog in catalogs { try await catalog.close() }
        }
    }

    @Test("Instances starting together migrate once")
    func migrateOnce() async throws {
        try await withInstances(4) { catalogs, _ in
            let rows = try await catalogs[0].database.read { connection in
                try await connection.rows("SELECT id FROM carnet_migration", logger: catalogs[0].logger)
                    .decode(String.self).array()
            }
            #expect(rows == PostgresMigrations.all.map(\.id))
        }
    }

    @Test("Concurrent principals with one name: one is created, the others get INSERTED_RECORD_ALREADY_EXISTS")
    func uniqueNames() async throws {
        try await withInstances(3) { catalogs, _ in
            let outcomes = await Self.outcomes(of: 9) { index in
                _ = try await catalogs[index % 3].createPrincipal(name: "alice")
            }
            let refusals = outcomes.compactMap { $0 }
            // A creation that waited for the first one's row longer than the lock timeout (two loaded cores) is
            // UNAVAILABLE and writes nothing; every other refusal names the taken name. Never two principals.
            #expect(refusals.allSatisfy { $0 == .insertedRecordAlreadyExists || $0 == .unavailable }, "\(refusals)")
            #expect(outcomes.filter { $0 == nil }.count <= 1)
            if !refusals.contains(.unavailable) { #expect(outcomes.filter { $0 == nil }.count == 1) }
            let names = try await catalogs[1].principals().map(\.name)
            #expect(names == (outcomes.contains { $0 == nil } ? ["alice"] : []))
        }
    }

    @Test("Concurrent book creation through several instances never passes the owner's quota")
    func quotaAcrossInstances() async throws {
        try await withInstances(3, configure: { $0.booksPerPrincipal = 4 }) { catalogs, _ in
            let alice = try await catalogs[0].createPrincipal(name: "alice")
            let outcomes = await Self.outcomes(of: 12) { index in
                _ = try await catalogs[index % 3].createBook(name: "Book \(index)", ownerID: alice.id)
            }
            let created = outcomes.filter { $0 == nil }.count
            let refusals = outcomes.compactMap { $0 }
            // A creation that waited too long for the quota's lock (two loaded cores) is UNAVAILABLE and writes
            // nothing; every other refusal is the quota's. Never more books than the quota, whatever happened.
            #expect(refusals.allSatisfy { $0 == .quotaExceeded || $0 == .unavailable }, "\(refusals)")
            #expect(created <= 3)
            if !refusals.contains(.unavailable) { #expect(created == 3) }
            let owned = try await catalogs[2].books(visibleTo: alice.id).filter { $0.access == .owner }
            #expect(owned.count == 1 + created)
        }
    }

    @Test("A database that does not answer is UNAVAILABLE, not a raw client error")
    func unreachable() async throws {
        var location = PostgresLocation(host: "127.0.0.1", port: 1, username: "nobody", database: "none", tls: .disable)
        location.connectTimeout = .seconds(2)
        await #expect {
            _ = try await PostgresCatalog.open(location)
        } throws: { error in
            (error as? StoreError)?.code == .unavailable
        }
    }
}
