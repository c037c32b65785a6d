import Foundation

/// Latency percentiles, in microseconds.
struct Stats {
    var p50: Double
    var p99: Double

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        func percentile(_ p: Double) -> Double {
            sorted[max(0, min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1))]
        }
        p50 = percentile(0.5)
        p99 = percentile(0.99)
    }
}

enum Stopwatch {
    static let clock = ContinuousClock()

    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }

    static func measure(iterations: Int, warmup: Int = 10, _ body: (Int) async throws -> Void) async throws -> Stats {
        for index in 0..<warmup { try await body(index) }
        var samples: [Double] = []
        for index in 0..<iterations {
            let start = clock.now
            try await body(index)
            samples.append(microseconds(clock.now - start))
        }
        return Stats(samples)
    }

    static func measureSync(iterations: Int, warmup: Int = 10, _ body: (Int) throws -> Void) throws -> Stats {
        for index in 0..<warmup { try body(index) }
        var samples: [Double] = []
        for index in 0..<iterations {
            let start = clock.now
            try body(index)
            samples.append(microseconds(clock.now - start))
        }
        return Stats(samples)
    }
}

enum Report {
    static func format(_ microseconds: Double) -> String {
        microseconds >= 1000 ? String(format: "%.2f ms", microseconds / 1000) : String(format: "%.0f µs", microseconds)
    }

    static func print(_ rows: [Measurement], contacts: Int) {
        Swift.print(
            "GraphQL in process, \(contacts) contacts, release build, \(ProcessInfo.processInfo.activeProcessorCount) cores.\n"
        )
        Swift.print(
            "| Operation | Carnet p50 | Carnet p99 | Reference p50 | Carnet speed-up | Baseline p50 | Carnet ÷ baseline | Same output |"
        )
        Swift.print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | :---: |")
        for row in rows {
            let reference = row.reference.map { format($0.p50) } ?? "–"
            let speedup = row.reference.map { String(format: "%.0f×", $0.p50 / row.carnet.p50) } ?? "–"
            let baseline = row.baseline.map { format($0.p50) } ?? "–"
            let ratio = row.baseline.map { String(format: "%.2f×", row.carnet.p50 / $0.p50) } ?? "–"
            let same = row.identical.map { $0 ? "yes" : "**no**" } ?? "–"
            Swift.print(
                "| \(row.operation) | \(format(row.carnet.p50)) | \(format(row.carnet.p99)) | \(reference) | \(speedup) | \(baseline) | \(ratio) | \(same) |"
            )
        }
    }
}
