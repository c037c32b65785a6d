/// A small, fast, seedable generator (SplitMix64): the same seed gives the same data set on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A generator for one item of a stream, independent of how many values earlier items drew.
    init(seed: UInt64, stream: UInt64, index: Int) {
        var mixer = SplitMix64(seed: seed ^ (stream &* 0x9E37_79B9_7F4A_7C15))
        state = mixer.next() ^ UInt64(truncatingIfNeeded: index) &* 0xBF58_476D_1CE4_E5B9
        _ = next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { unit() < p }

    mutating func int(_ range: Range<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }

    mutating func int(_ range: ClosedRange<Int>) -> Int { int(range.lowerBound..<(range.upperBound + 1)) }

    mutating func pick<T>(_ list: [T]) -> T { list[int(0..<list.count)] }

    /// A pick that favours the start of the list (density ∝ 1/√x), like real name frequencies.
    mutating func skewed<T>(_ list: [T]) -> T {
        let u = unit()
        return list[min(list.count - 1, Int(u * u * Double(list.count)))]
    }
}

extension String {
    func leftPadded(_ width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
