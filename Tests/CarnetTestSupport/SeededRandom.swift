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

    /// True `percent` times in a hundred.
    public mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }

    public mutating func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[int(0...items.count - 1)] }
}
