import Foundation
import Testing

/// The sync contract on random schedules (issue: "Sync that never diverges"): after each schedule every client
/// holds what the server holds. `CARNET_SYNC_SCHEDULES` sets how many schedules run (1,000 by default, split in
/// four parallel batches), `CARNET_SYNC_SEED` runs one schedule; a failure prints its seed and steps.
@Suite("Sync model")
struct SyncModelTests {
    static let total = ProcessInfo.processInfo.environment["CARNET_SYNC_SCHEDULES"].flatMap(Int.init) ?? 1_000
    static let onlySeed = ProcessInfo.processInfo.environment["CARNET_SYNC_SEED"].flatMap(UInt64.init)
    static let baseSeed: UInt64 =
        ProcessInfo.processInfo.environment["CARNET_SYNC_BASE_SEED"].flatMap(UInt64.init)
        ?? UInt64(Date().timeIntervalSince1970)

    @Test("Every replica converges to the server", arguments: 0..<4)
    func converges(batch: Int) async throws {
        let seeds: [UInt64] =
            Self.onlySeed.map { batch == 0 ? [$0] : [] }
            ?? (0..<Self.total).filter { $0 % 4 == batch }.map { Self.baseSeed &+ UInt64($0) }
        var steps = 0
        for seed in seeds {
            var runner = try await ScheduleRunner(seed: seed)
            do {
                try await runner.run()
                steps += runner.steps
            } catch {
                Issue.record(
                    "seed \(seed) (CARNET_SYNC_SEED=\(seed)) failed after \(runner.steps) steps: \(error)\nsteps: \(runner.log.joined(separator: "; "))"
                )
                await runner.world.close()
                return
            }
            await runner.world.close()
        }
        print("sync model batch \(batch): \(seeds.count) schedules, \(steps) steps, base seed \(Self.baseSeed)")
    }
}
