import CarnetStore
import Foundation
import GRDB

/// `carnet-bench --backends sqlite,postgres --database URL`: issue 18's store figures on both backends in one run,
/// from the same generated data (`PostgresDataset` copies each SQLite data set into PostgreSQL), through
/// `any ContactStore`; then a full sync of a 10,000-contact book on both and, on PostgreSQL, the cross-instance
/// notification latency.
struct BackendComparison {
    var backends: [BackendStore.Kind]
    var databaseURL: String?
    var sizes: [Int]
    var directory: String
    var iterations: Int
    var seed: UInt64
    var syncRuns: Int
    var notifySaves: Int
    var searchIterations: Int?

    /// The size of the book the full sync and the notification latency use.
    static let syncBookSize = 10_000

    func run() async throws {
        var report = BackendReport(date: Date(), revision: Revision.atLaunch)
        for size in sizes {
            let dataset = try await Dataset.prepare(size: size, directory: directory, seed: seed, regenerate: false)
            let url = try await postgresURL(dataset)
            let raw = try RawDatabase.open(path: dataset.path)
            let workload = try await Workload.build(raw, count: iterations + 20, seed: seed)
            try raw.close()
            for kind in backends {
                log("benchmarking \(size) contacts on \(kind.rawValue)")
                let contention = Contention.start()
                let opened = try await BackendStore.open(kind, dataset: dataset, postgresURL: url)
                let operations = try await BackendBenchmarks(
                    store: opened.store, workload: workload, generator: DataGenerator(seed: seed),
                    iterations: iterations, searchIterations: searchIterations
                ).run()
                try await opened.close()
                report.sizes.append(
                    .init(size: size, backend: kind, operations: operations, contention: contention.othersShare()))
            }
        }

        let syncSet = try await Dataset.prepare(
            size: Self.syncBookSize, directory: directory, seed: seed, regenerate: false)
        let syncURL = try await postgresURL(syncSet)
        for kind in backends {
            log("full sync of \(Self.syncBookSize) contacts on \(kind.rawValue)")
            let opened = try await BackendStore.open(kind, dataset: syncSet, postgresURL: syncURL)
            let (stats, events) = try await BackendBenchmarks.fullSync(opened.store, runs: syncRuns)
            try await opened.close()
            report.fullSyncs.append(.init(backend: kind, seconds: stats, events: events))
        }
        if let syncURL, notifySaves > 0 {
            log("cross-instance notification latency, \(notifySaves) saves")
            let contention = Contention.start()
            report.notify = try await NotifyLatency.run(
                url: syncURL, saves: notifySaves, generator: DataGenerator(seed: seed))
            report.notifyContention = contention.othersShare()
        }
        let path = "\(directory)/backends-\(Int(report.date.timeIntervalSince1970)).json"
        try JSONEncoder.bench.encode(report).write(to: URL(fileURLWithPath: path))
        log("saved \(path)")
        print(report.markdown)
    }

    private func postgresURL(_ dataset: Dataset) async throws -> String? {
        guard backends.contains(.postgres), let databaseURL else { return nil }
        return try await PostgresDataset.prepare(dataset, baseURL: databaseURL, directory: directory)
    }
}
