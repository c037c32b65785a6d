import Testing

@testable import CarnetServer

@Suite("Rate limiter")
struct RateLimiterTests {
    @Test("A burst is allowed, then a wait in whole seconds; a vanishingly small rate clamps the wait, never traps")
    func waits() {
        let limiter = RateLimiter(rate: 0.5, burst: 2)
        #expect(limiter.acquire("a") == nil)
        #expect(limiter.acquire("a") == nil)
        let wait = limiter.acquire("a")
        #expect(wait != nil && wait! >= 1 && wait! <= 2)
        #expect(limiter.acquire("b") == nil, "each token has its own bucket")

        let starved = RateLimiter(rate: 1e-300, burst: 1)
        #expect(starved.acquire("a") == nil)
        #expect(starved.acquire("a") == Int(Int32.max))
    }
}
