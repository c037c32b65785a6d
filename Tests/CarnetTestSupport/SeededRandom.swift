import Foundation

/// A seeded generator (SplitMix64) for the generated tests: the same seed gives the same run, so a printed seed
/// reproduces a failure.
public struct SeededRandom: Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// A number from 0 up to, not including, `bound` (0 when `bound` is 0).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }

    /// True `percent` times in a hundred.
    public mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }

    public mutating func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[int(0...items.count - 1)] }
}

extension SeededRandom {
    /// The seed the environment variable `name` gives, so a printed seed replays a run; else a new one each run,
    /// so runs differ and CI explores. Tests with no variable of their own read `CARNET_TEST_SEED`.
    public static func seed(from name: String) -> UInt64 {
        ProcessInfo.processInfo.environment[name].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64(UInt32.max))
    }

    /// The seeds the environment variable `name` lists (`7`, `7,9,12` or a range `1...500`), else `fallback`:
    /// for model tests whose few default seeds stay fixed, with wider runs on request.
    public static func seeds(from name: String, default fallback: [UInt64]) -> [UInt64] {
        guard let text = ProcessInfo.processInfo.environment[name] else { return fallback }
        let bounds = text.components(separatedBy: "...")
        if bounds.count == 2, let low = UInt64(bounds[0]), let high = UInt64(bounds[1]), low <= high {
            return Array(low...high)
        }
        return text.split(separator: ",").compactMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
    }
}
