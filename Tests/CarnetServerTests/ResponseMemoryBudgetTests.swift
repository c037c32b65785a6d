import Testing

@testable import CarnetServer

@Suite("Response memory budget")
struct ResponseMemoryBudgetTests {
    @Test("Reservations grow within the budget, shrink always, and give their bytes back when they go")
    func growAndRelease() {
        let budget = ResponseMemoryBudget(limit: 1_000)
        let first = budget.reservation()
        #expect(first.resize(to: 600))
        var second: ResponseMemoryBudget.Reservation? = budget.reservation()
        #expect(second?.resize(to: 300) == true)
        #expect(second?.resize(to: 401) == false, "600 + 401 is past 1,000")
        #expect(second?.resize(to: 400) == true)
        #expect(first.resize(to: 100), "a shrink always passes")
        #expect(second?.resize(to: 900) == true, "100 + 900")
        second = nil
        #expect(first.resize(to: 1_000), "the dropped reservation gave its 900 back")
    }

    @Test("One response alone passes whatever its size; another then waits for it to go")
    func oneAlone() {
        let budget = ResponseMemoryBudget(limit: 1_000)
        var large: ResponseMemoryBudget.Reservation? = budget.reservation()
        #expect(large?.resize(to: 500) == true)
        #expect(large?.resize(to: 5_000) == true, "nothing else is held")
        let other = budget.reservation()
        #expect(!other.resize(to: 1))
        large = nil
        #expect(other.resize(to: 1_000))
    }
}
