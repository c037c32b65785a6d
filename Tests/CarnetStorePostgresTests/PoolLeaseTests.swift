import CarnetStore
import CarnetStoreTestSupport
import Foundation
import Logging
import Synchronization
import Testing

@testable import CarnetStorePostgres

/// postgres-nio waits for a pooled connection without a bound: with the database down, every request waited for
/// the pool's reconnection backoff, about a minute (an outside tester's find). A lease not granted within the
/// connect timeout is withdrawn with UNAVAILABLE; a connection given back meanwhile serves the next lease.
@Suite(
    "PostgreSQL pool leases", .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
struct PoolLeaseTests {
    @Test("A read that gets no connection within the connect timeout fails with UNAVAILABLE; the pool still serves")
    func exhausted() async throws {
        try await PostgresTestDatabase.with { shared in
            var location = shared
            location.poolSize = 2
            location.connectTimeout = .seconds(2)
            // A loaded machine may take longer than that to make a connection: the setup tries again (the read
            // expected to fail below fails however long the pool takes, since both its connections stay held).
            let database = try await Self.untilServed {
                try await PostgresDatabase.connect(location, logger: Logger(label: "carnet.tests.lease"))
            }
            // Both connections held until released: a query on each, in flight.
            let (leased, leases) = AsyncStream.makeStream(of: Void.self)
            let release = Flag()
            let holders = (0..<2).map { _ in
                Task {
                    try await Self.untilServed {
                        try await database.read { connection in
                            leases.yield()
                            while !release.isSet.load(ordering: .acquiring) {
                                _ = try await connection.rows("SELECT pg_sleep(0.05)", logger: database.logger)
                            }
                        }
                    }
                }
            }
            var iterator = leased.makeAsyncIterator()
            for _ in 0..<2 { await iterator.next() }
            // A hang bound: before, the read waited for a connection as long as the holders held theirs.
            let refusal = try await withThrowingTaskGroup(of: StoreError?.self) { group in
                group.addTask {
                    do {
                        _ = try await database.read { connection in
                            try await connection.rows("SELECT 1", logger: database.logger).collect()
                        }
                        return nil
                    } catch let error as StoreError {
                        return error
                    }
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(120))
                    throw CancellationError()
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            release.isSet.store(true, ordering: .releasing)
            #expect(refusal?.code == .unavailable, "\(String(describing: refusal))")
            #expect(refusal?.retryAfter != nil)
            for holder in holders { try await holder.value }
            // A loaded machine may again take longer than the timeout to make a connection the pool closed.
            let rows = try await Self.untilServed {
                try await database.read { connection in
                    try await connection.rows("SELECT 1", logger: database.logger).collect().count
                }
            }
            #expect(rows == 1)
            await database.close()
        }
    }

    /// `operation`'s result, tried again while it fails with UNAVAILABLE, 60 times at most.
    static func untilServed<T>(_ operation: () async throws -> T) async throws -> T {
        for _ in 1..<60 {
            do {
                return try await operation()
            } catch let error as StoreError where error.code == .unavailable {
                continue
            }
        }
        return try await operation()
    }

    final class Flag: Sendable {
        let isSet = Atomic(false)
    }
}
