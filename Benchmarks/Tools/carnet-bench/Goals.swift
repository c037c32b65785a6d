import Foundation

/// The goals, judged from the results of every size run so far.
enum Goals {
    struct Goal {
        var name: String
        var target: String
        var measured: String
        var met: Bool?
    }

    static func evaluate(_ results: [SizeResult]) -> [Goal] {
        var goals: [Goal] = []
        if let big = results.first(where: { $0.size == 1_000_000 }),
            let name = big.operations.first(where: { $0.name == "Name-prefix search" })
        {
            goals.append(
                Goal(
                    name: "Name-prefix search at 1M contacts", target: "p99 < 2 ms",
                    measured:
                        "p99 \(Report.milliseconds(name.carnet.p99)) (p50 \(Report.milliseconds(name.carnet.p50)))",
                    met: name.carnet.p99 < 2_000))
        } else {
            goals.append(
                Goal(name: "Name-prefix search at 1M contacts", target: "p99 < 2 ms", measured: "not run", met: nil))
        }
        let fetches = results.compactMap { r in
            r.operations.first { $0.name.hasPrefix("Fetch by id") }.map { (r.size, $0) }
        }
        if !fetches.isEmpty {
            let text = fetches.map { size, op in
                "\(Report.count(size)): \(Report.ratio(op.carnet.p50, op.raw?.p50)) p50, "
                    + "\(Report.ratio(op.carnet.p99, op.raw?.p99)) p99 (vs sync SQL \(Report.ratio(op.carnet.p50, op.rawSync?.p50)) p50)"
            }.joined(separator: "; ")
            let met = fetches.allSatisfy { _, op in op.carnet.p50 <= 2 * (op.raw?.p50 ?? .infinity) }
            goals.append(
                Goal(
                    name: "Fetch by id vs raw SQL", target: "within 2× (p50, same async read)", measured: text, met: met
                ))
        }
        if let r = results.first(where: { $0.size == 100_000 }) {
            let seconds = r.dataset.importStoreSeconds
            goals.append(
                Goal(
                    name: "Import 100k contacts", target: "< 10 s",
                    measured: String(
                        format: "%.2f s in the store, %.2f s with data generation", seconds, r.dataset.importWallSeconds
                    ),
                    met: seconds < 10))
        }
        if let r = results.first(where: { $0.size == 1_000_000 }) {
            let worst = r.dataset.secondsPer100kBlock.max() ?? 0
            goals.append(
                Goal(
                    name: "Import at 1M, slowest 100k block", target: "< 10 s (same goal, bigger database)",
                    measured: String(format: "%.2f s (whole million: %.1f s)", worst, r.dataset.importStoreSeconds),
                    met: worst < 10))
        }
        let streams = results.flatMap { r in r.streams.map { (r.size, $0) } }
        if !streams.isEmpty {
            let worst = streams.max { $0.1.growth < $1.1.growth }!
            let worstLate = streams.max { $0.1.growthAfterFirstTenth < $1.1.growthAfterFirstTenth }!
            let flat = streams.allSatisfy { $0.1.growthAfterFirstTenth < 16 * 1_048_576 }
            goals.append(
                Goal(
                    name: "Memory while streaming the full history",
                    target: "flat: heap peak < heap after the first 10% of the pages + 16 MB, at every size",
                    measured: "worst heap growth over the whole stream \(Report.megabytes(worst.1.growth)) "
                        + "(\(worst.1.name), \(Report.count(worst.0)) contacts); after the first 10%: "
                        + "\(Report.megabytes(worstLate.1.growthAfterFirstTenth)) (\(worstLate.1.name), \(Report.count(worstLate.0)))",
                    met: flat))
        }
        return goals
    }

    static func table(_ results: [SizeResult]) -> String {
        var lines = ["| Goal | Target | Measured | Met |", "| --- | --- | --- | --- |"]
        for goal in evaluate(results) {
            let met = goal.met.map { $0 ? "yes" : "**no**" } ?? "–"
            lines.append("| \(goal.name) | \(goal.target) | \(goal.measured) | \(met) |")
        }
        return lines.joined(separator: "\n")
    }
}
