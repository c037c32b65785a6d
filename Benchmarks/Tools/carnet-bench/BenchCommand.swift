import ArgumentParser
import CarnetStore
import CarnetStoreSQLite
import Foundation
import GRDB

/// `carnet-bench`: generates data sets, times Carnet against hand-written SQL, writes BENCHMARKS.md.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "carnet-bench",
        abstract: "Benchmark the Carnet record store against hand-written SQL on the same database.")

    @Option(help: "Contact counts to benchmark, comma-separated.")
    var sizes: String = "10000,100000,1000000"

    @Option(help: "Where the generated databases and per-size results live.")
    var directory: String = "/tmp/carnet-bench"

    @Option(help: "Timed iterations per read operation (saves and history fetches use fewer).")
    var iterations: Int = 1000

    @Option(help: "Seed of the generated data.")
    var seed: UInt64 = 20_240_601

    @Option(help: "Write the Markdown report, with every size found in --directory, to this file.")
    var report: String?

    @Flag(help: "Regenerate the databases even when matching ones exist.")
    var regenerate = false

    @Flag(help: "Only rewrite --report from the saved results.")
    var reportOnly = false

    @Flag(help: "Skip streaming the whole history (the slowest part at 1M).")
    var skipStream = false

    @Flag(name: .shortAndLong, help: "Print the store's SQL and query plans.")
    var verbose = false

    @Option(
        help: """
            Run issue 18's comparison instead: these backends (comma-separated: sqlite, postgres) on the same data, \
            through the ContactStore protocol.
            """)
    var backends: String?

    @Option(
        help: """
            A postgres:// URL for --backends postgres: each data set is copied into a database carnet_bench_<size> \
            of that server (made once, with psql). Env: CARNET_DATABASE_URL.
            """)
    var database: String? = ProcessInfo.processInfo.environment["CARNET_DATABASE_URL"]

    @Option(help: "Full syncs of the 10,000-contact book per backend (--backends).")
    var syncRuns: Int = 10

    @Option(help: "Saves timed from instance A to a subscriber on instance B (--backends with postgres; 0 skips).")
    var notifySaves: Int = 1000

    @Option(help: "Timed runs of each kind of name search with --backends (default: --iterations).")
    var searchIterations: Int?

    @Flag(
        help: """
            Time the first page of duplicate candidates on a book of the first size with 5% duplicates, on \
            --backends (default sqlite), instead (issue 16).
            """)
    var duplicates = false

    @Flag(
        help: """
            Time a page of 50 and name searches with unification on and off, on a book of the first size where 20% \
            of the contacts are linked in pairs (issue 16's goal: on within 1.5 times off).
            """)
    var unified = false

    @Option(help: ArgumentHelp("With --unified, only the operations whose names contain this.", visibility: .hidden))
    var unifiedOnly: String?

    @Option(help: ArgumentHelp("Run one Carnet operation in a loop on the first size, for perf.", visibility: .hidden))
    var profile: String?

    @Option(help: ArgumentHelp("Seconds of --profile.", visibility: .hidden))
    var profileSeconds: Double = 15

    func validate() throws {
        guard !parsedSizes.isEmpty, parsedSizes.allSatisfy({ $0 >= 1_000 }) else {
            throw ValidationError("--sizes takes comma-separated counts of at least 1000")
        }
        guard iterations >= 20 else { throw ValidationError("--iterations must be at least 20") }
        if reportOnly && report == nil { throw ValidationError("--report-only needs --report") }
        if let backends {
            let kinds = backends.split(separator: ",").map { BackendStore.Kind(rawValue: String($0)) }
            guard !kinds.isEmpty, kinds.allSatisfy({ $0 != nil }) else {
                throw ValidationError("--backends takes sqlite, postgres or both, comma-separated")
            }
            if kinds.contains(.postgres) && database == nil {
                throw ValidationError("--backends postgres needs --database (or CARNET_DATABASE_URL)")
            }
        }
    }

    var parsedSizes: [Int] { sizes.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } }

    /// `--backends` as kinds; SQLite when absent.
    var parsedBackends: [BackendStore.Kind] {
        (backends ?? "sqlite").split(separator: ",").compactMap { BackendStore.Kind(rawValue: String($0)) }
    }

    func run() async throws {
        #if DEBUG
            log("warning: debug build; build with -c release for meaningful numbers")
        #endif
        try Exclusive.lock(directory: directory)
        try await StoreSettings.capture(directory: directory)
        if unified {
            return try await UnifiedBenchmark(
                size: parsedSizes[0], backends: parsedBackends, databaseURL: database, directory: directory,
                seed: seed, runs: iterations / 5, only: unifiedOnly
            ).run()
        }
        if duplicates {
            return try await DuplicateBenchmark(
                size: parsedSizes[0], backends: parsedBackends, databaseURL: database, directory: directory,
                seed: seed, runs: 10
            ).run()
        }
        if let backends {
            return try await BackendComparison(
                backends: backends.split(separator: ",").compactMap { BackendStore.Kind(rawValue: String($0)) },
                databaseURL: database, sizes: parsedSizes, directory: directory, iterations: iterations, seed: seed,
                syncRuns: syncRuns, notifySaves: notifySaves, searchIterations: searchIterations
            ).run()
        }
        if let profile {
            let dataset = try await Dataset.prepare(
                size: parsedSizes[0], directory: directory, seed: seed, regenerate: regenerate)
            return try await Profile.run(profile, dataset: dataset, seconds: profileSeconds)
        }
        if !reportOnly {
            for size in parsedSizes {
                let result = try await benchmark(size: size)
                try result.save(directory: directory)
                print("\n" + Report.section(result))
                if verbose { print(Report.plans(result.plans)) }
                let scans = result.plans.filter { !$0.fullScans.isEmpty }
                for plan in scans { print("FULL SCAN in \(plan.operation): \(plan.fullScans.joined(separator: "; "))") }
            }
        }
        let all = SizeResult.loadAll(directory: directory)
        print("\n## Goals\n\n" + Goals.table(all))
        if let report {
            try Document.markdown(all).write(toFile: report, atomically: true, encoding: .utf8)
            log("wrote \(report)")
        }
    }

    private func benchmark(size: Int) async throws -> SizeResult {
        let dataset = try await Dataset.prepare(size: size, directory: directory, seed: seed, regenerate: regenerate)
        let contention = Contention.start()
        log("benchmarking \(size) contacts")
        var others = Set(Exclusive.otherBenchmarks())
        let store = try SQLiteStore.open(path: dataset.path)
        let raw = try RawDatabase.open(path: dataset.path)
        let workload = try await Workload.build(raw, count: iterations + 20, seed: seed)
        let comparison = Comparison(raw: raw, iterations: iterations)

        // Memory first, while the process is small: streaming must not grow it.
        let history = HistoryBenchmarks(store: store, comparison: comparison, info: dataset.info)
        var streams: [StreamResult] = []
        if !skipStream {
            streams.append(try await history.stream("Full sync (no token)", from: nil))
            streams.append(try await history.stream("Whole history (first token)", from: dataset.info.initialToken))
        }
        var operations = try await ReadBenchmarks(store: store, comparison: comparison, workload: workload).run()
        operations += try await SaveBenchmarks(
            store: store, raw: raw, generator: DataGenerator(seed: seed), iterations: iterations
        ).run()
        operations += try await history.run()
        if size == 100_000 {
            operations.append(
                try await ImportFloor.run(
                    generator: DataGenerator(seed: seed), count: size, directory: directory))
        }
        log("  query plans and phone formats")
        let plans = try await QueryPlans(path: dataset.path, raw: raw, workload: workload).run()
        let phones = try await PhoneCheck.run(store, raw)
        let folding = try await FoldCheck.run()
        let machine = Machine.current(sqlite: try RawDatabase.sqliteVersion(raw))
        others.formUnion(Exclusive.otherBenchmarks())
        for other in others { log("warning: another benchmark shared the machine: \(other)") }
        let othersShare = contention.othersShare()
        if othersShare > 0.05 {
            log(
                String(
                    format: "warning: other processes kept %.0f%% of the cores busy during this run", othersShare * 100)
            )
        }
        try await store.close()
        try raw.close()
        var info = dataset.info
        info.fileBytes = Dataset.fileSize(dataset.path)
        return SizeResult(
            size: size, date: Date(), iterations: iterations, machine: machine, dataset: info,
            operations: operations, streams: streams, plans: plans, phoneFormats: phones, folding: folding,
            concurrentBenchmarks: others.sorted(), settings: StoreSettings.current, contention: othersShare)
    }
}
