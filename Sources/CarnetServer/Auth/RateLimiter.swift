import Synchronization

/// A token bucket per access token: `rate` requests a second on average, bursts up to `burst`.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    let rate: Double
    let burst: Double
    private let buckets = Mutex<[String: Bucket]>([:])

    init(rate: Double, burst: Int) {
        self.rate = rate
        self.burst = Double(max(1, burst))
    }

    /// Takes one request from `key`'s bucket. - Returns: `nil` if allowed, else the seconds to wait.
    func acquire(_ key: String) -> Int? {
        guard rate > 0 else { return nil }
        let now = ContinuousClock.now
        return buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            let elapsed = now - bucket.updated
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            bucket.tokens = min(burst, bucket.tokens + seconds * rate)
            bucket.updated = now
            defer { buckets[key] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            // A very small configured rate makes the wait astronomically long: clamped, never an overflow trap.
            let wait = ((1 - bucket.tokens) / rate).rounded(.up)
            return wait.isFinite && wait < Double(Int32.max) ? max(1, Int(wait)) : Int(Int32.max)
        }
    }
}
