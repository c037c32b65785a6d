/// Latency percentiles of one measured operation, in microseconds.
struct Stats: Codable, Sendable {
    var count: Int
    var p50: Double
    var p99: Double
    var mean: Double
    var max: Double

    init(microseconds samples: [Double]) {
        let sorted = samples.sorted()
        count = sorted.count
        func percentile(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            // Nearest rank: the smallest sample with at least p of the samples at or below it.
            let rank = Int((p * Double(sorted.count)).rounded(.up))
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
        }
        p50 = percentile(0.50)
        p99 = percentile(0.99)
        mean = sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)
        max = sorted.last ?? 0
    }
}

extension Duration {
    var microseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }

    var seconds: Double { microseconds / 1e6 }
}

/// Runs an operation `warmup` times untimed, then `iterations` times timed, one at a time.
enum Stopwatch {
    static let clock = ContinuousClock()

    static func measure(
        iterations: Int, warmup: Int = 20, _ body: (Int) async throws -> Void
    ) async throws -> (stats: Stats, samples: [Double]) {
        for index in 0..<warmup { try await body(index) }
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for index in 0..<iterations {
            let start = clock.now
            try await body(warmup + index)
            samples.append((clock.now - start).microseconds)
        }
        return (Stats(microseconds: samples), samples)
    }

    /// The same for a synchronous operation (no suspension point between the clock reads).
    static func measureSync(
        iterations: Int, warmup: Int = 20, _ body: (Int) throws -> Void
    ) throws -> (stats: Stats, samples: [Double]) {
        for index in 0..<warmup { try body(index) }
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for index in 0..<iterations {
            let start = clock.now
            try body(warmup + index)
            samples.append((clock.now - start).microseconds)
        }
        return (Stats(microseconds: samples), samples)
    }

    static func time<T>(_ body: () async throws -> T) async rethrows -> (value: T, seconds: Double) {
        let start = clock.now
        let value = try await body()
        return (value, (clock.now - start).seconds)
    }
}
