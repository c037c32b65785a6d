import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import Testing

/// The sync contract on random schedules (issue: "Sync that never diverges"): after each schedule every client
/// holds what the server holds. `CARNET_SYNC_SCHEDULES` sets how many schedules run (1,000 by default, split in
/// four parallel batches), `CARNET_SYNC_SEED` runs one schedule; a failure prints its seed and steps
/// (`CARNET_SYNC_VERBOSE=1`: every schedule's steps, operations in full). Clients sync unified or individual
/// contacts; writers link, unlink and set preferred contacts too. A subscriber holds payloads that arrive while its
/// own save is in flight until it has applied the save's result, and another author's save sometimes commits in
/// between, so its payload arrives before that result (the contract's order; without the hold, 3 of 1,600
/// schedules diverged).
@Suite("Sync model")
struct SyncModelTests {
    static let total = ProcessInfo.processInfo.environment["CARNET_SYNC_SCHEDULES"].flatMap(Int.init) ?? 1_000
    static let onlySeed = ProcessInfo.processInfo.environment["CARNET_SYNC_SEED"].flatMap(UInt64.init)
    static let baseSeed = SeededRandom.seed(from: "CARNET_SYNC_BASE_SEED")

    /// Schedules on PostgreSQL: each one's saves are network round trips, so fewer by default
    /// (`CARNET_SYNC_SCHEDULES_POSTGRES`).
    static let totalPostgres =
        ProcessInfo.processInfo.environment["CARNET_SYNC_SCHEDULES_POSTGRES"].flatMap(Int.init) ?? 100

    @Test("Every replica converges to the server", arguments: 0..<4)
    func converges(batch: Int) async throws {
        try await run(batch: batch, total: Self.total, postgres: false)
    }

    @Test(
        "Every replica converges to the server on PostgreSQL",
        .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired), arguments: 0..<4)
    func convergesOnPostgres(batch: Int) async throws {
        try await run(batch: batch, total: Self.totalPostgres, postgres: true)
    }

    func run(batch: Int, total: Int, postgres: Bool) async throws {
        let seeds: [UInt64] =
            Self.onlySeed.map { batch == 0 ? [$0] : [] }
            ?? (0..<total).filter { $0 % 4 == batch }.map { Self.baseSeed &+ UInt64($0) }
        var steps = 0
        var linkSaves = 0
        for seed in seeds {
            var runner = try await ScheduleRunner(seed: seed, postgres: postgres)
            do {
                try await runner.run()
                steps += runner.steps
                if ScheduleRunner.verbose { print("seed \(seed): " + runner.log.joined(separator: "; ")) }
                linkSaves += runner.linkSaves
            } catch {
                Issue.record(
                    "seed \(seed) (CARNET_SYNC_SEED=\(seed)) failed after \(runner.steps) steps: \(error)\nsteps: \(runner.log.joined(separator: "; "))"
                )
                await runner.world.close()
                return
            }
            await runner.world.close()
        }
        print(
            "sync model\(postgres ? " on PostgreSQL" : "") batch \(batch): \(seeds.count) schedules, \(steps) steps, \(linkSaves) saves that linked or unlinked, base seed \(Self.baseSeed)"
        )
    }
}
