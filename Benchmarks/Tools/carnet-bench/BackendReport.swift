import Foundation

/// What `--backends` measured, saved as JSON beside the data sets and printed as the Markdown BENCHMARKS.md's
/// "PostgreSQL beside SQLite" section quotes.
struct BackendReport: Codable, Sendable {
    struct SizeRun: Codable, Sendable {
        var size: Int
        var backend: BackendStore.Kind
        var operations: [OperationResult]
        /// The share of the cores other processes kept busy meanwhile (0 to 1).
        var contention: Double
    }

    struct FullSync: Codable, Sendable {
        var backend: BackendStore.Kind
        var seconds: Stats
        var events: Int
    }

    var date: Date
    var revision: String
    var sizes: [SizeRun] = []
    var fullSyncs: [FullSync] = []
    var notify: NotifyLatency.Result?
    var notifyContention: Double?

    var markdown: String {
        var text = ""
        for size in Set(sizes.map(\.size)).sorted() {
            let runs = sizes.filter { $0.size == size }
            text += "\n### \(Report.count(size)) contacts\n\n"
            text +=
                "| Operation | "
                + runs.map { "\($0.backend.rawValue) p50 | \($0.backend.rawValue) p99" }
                .joined(separator: " | ") + " | postgres ÷ sqlite p50 / p99 |\n"
            text += "| --- |" + String(repeating: " ---: | ---: |", count: runs.count) + " ---: |\n"
            for (index, operation) in (runs.first?.operations ?? []).enumerated() {
                var cells = [operation.name]
                for run in runs where index < run.operations.count {
                    let stats = run.operations[index].carnet
                    cells += [Report.milliseconds(stats.p50), Report.milliseconds(stats.p99)]
                }
                cells.append(ratio(runs, index))
                text += cells.joined(separator: " | ").wrappedAsRow + "\n"
            }
            let busy = runs.map { String(format: "%@ %.0f%%", $0.backend.rawValue, $0.contention * 100) }
            text += "\nOther processes kept the cores busy: \(busy.joined(separator: ", ")).\n"
        }
        if !fullSyncs.isEmpty {
            text += "\n### Full sync of a 10,000-contact book (pages of 1,000, 8 keys)\n\n"
            text += "| Backend | Events | p50 | max | runs |\n| --- | ---: | ---: | ---: | ---: |\n"
            for sync in fullSyncs {
                text +=
                    [
                        sync.backend.rawValue, Report.count(sync.events), Report.milliseconds(sync.seconds.p50),
                        Report.milliseconds(sync.seconds.max), "\(sync.seconds.count)",
                    ].joined(separator: " | ").wrappedAsRow + "\n"
            }
        }
        if let notify {
            text += "\n### Save on instance A to a `changes()` subscriber on instance B (PostgreSQL)\n\n"
            text += "| Measured from | p50 | p99 | max | saves | lost |\n| --- | ---: | ---: | ---: | ---: | ---: |\n"
            for (name, stats) in [("`execute` returned", notify.fromReturn), ("`execute` called", notify.fromCall)] {
                text +=
                    [
                        name, Report.milliseconds(stats.p50), Report.milliseconds(stats.p99),
                        Report.milliseconds(stats.max), "\(notify.saves)", "\(notify.lost)",
                    ].joined(separator: " | ").wrappedAsRow + "\n"
            }
            if let share = notifyContention {
                text += String(format: "\nOther processes kept %.0f%% of the cores busy.\n", share * 100)
            }
        }
        return text
    }

    private func ratio(_ runs: [SizeRun], _ index: Int) -> String {
        guard let sqlite = runs.first(where: { $0.backend == .sqlite }), index < sqlite.operations.count,
            let postgres = runs.first(where: { $0.backend == .postgres }), index < postgres.operations.count
        else { return "–" }
        let (s, p) = (sqlite.operations[index].carnet, postgres.operations[index].carnet)
        return "\(Report.ratio(p.p50, s.p50)) / \(Report.ratio(p.p99, s.p99))"
    }
}
