import Foundation
import Synchronization

/// Makes record identifiers: UUIDs in version 7's layout (a millisecond timestamp first, then a counter and
/// random bits), so identifiers made one after another sort one after another. That keeps inserts into the
/// identifier indexes at the end of the B-tree instead of scattered, which is what keeps large imports fast.
/// Clients must still treat identifiers as opaque.
package enum IdentifierClock {
    private struct State {
        var milliseconds: UInt64 = 0
        var counter: UInt64 = 0
        /// Random words drawn ahead: the system generator is a system call per word, seven per imported card.
        var random: [UInt64] = []
    }

    private static let state = Mutex(State())

    package static func next() -> String {
        let now = UInt64(Date().timeIntervalSince1970 * 1000)
        let (milliseconds, counter, random) = state.withLock { state -> (UInt64, UInt64, UInt64) in
            if now > state.milliseconds {
                (state.milliseconds, state.counter) = (now, UInt64.random(in: 0..<512))
            } else {
                state.counter += 1
                // Borrows the next millisecond.
                if state.counter >= 4096 { (state.milliseconds, state.counter) = (state.milliseconds + 1, 0) }
            }
            if state.random.isEmpty { state.random = SystemRandom.words(256) }
            return (state.milliseconds, state.counter, state.random.removeLast())
        }
        let high = (milliseconds << 16) | 0x7000 | counter  // 48-bit time, version 7, 12-bit counter
        let low = (random & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        return format(high, low)
    }

    /// `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX` in uppercase hex, written straight into the string's storage.
    private static func format(_ high: UInt64, _ low: UInt64) -> String {
        String(unsafeUninitializedCapacity: 36) { buffer in
            let digits: StaticString = "0123456789ABCDEF"
            var position = 0
            func put(_ value: UInt64, nibbles: Int) {
                for shift in stride(from: (nibbles - 1) * 4, through: 0, by: -4) {
                    if position == 8 || position == 13 || position == 18 || position == 23 {
                        buffer[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    buffer[position] = digits.utf8Start[Int((value >> UInt64(shift)) & 0xF)]
                    position += 1
                }
            }
            put(high, nibbles: 16)
            put(low, nibbles: 16)
            return 36
        }
    }
}
