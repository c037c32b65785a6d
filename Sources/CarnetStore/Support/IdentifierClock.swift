import Foundation
import Synchronization

/// Makes record identifiers: UUIDs in version 7's layout (a millisecond timestamp first, then a counter and
/// random bits), so identifiers made one after another sort one after another. That keeps inserts into the
/// identifier indexes at the end of the B-tree instead of scattered, which is what keeps large imports fast.
/// Clients must still treat identifiers as opaque.
enum IdentifierClock {
    private static let state = Mutex<(milliseconds: UInt64, counter: UInt64)>((0, 0))

    static func next() -> String {
        let now = UInt64(Date().timeIntervalSince1970 * 1000)
        let (milliseconds, counter) = state.withLock { state -> (UInt64, UInt64) in
            if now > state.milliseconds {
                state = (now, UInt64.random(in: 0..<512))
            } else {
                state.counter += 1
                if state.counter >= 4096 { state = (state.milliseconds + 1, 0) }  // borrow the next millisecond
            }
            return state
        }
        let high = (milliseconds << 16) | 0x7000 | counter  // 48-bit time, version 7, 12-bit counter
        let low = (UInt64.random(in: 0...UInt64.max) & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let hex = String(format: "%016llX%016llX", high, low)
        let characters = Array(hex)
        return String(characters[0..<8]) + "-" + String(characters[8..<12]) + "-" + String(characters[12..<16]) + "-"
            + String(characters[16..<20]) + "-" + String(characters[20..<32])
    }
}
