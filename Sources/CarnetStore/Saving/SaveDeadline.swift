/// The earliest ``SaveRequest/deadline`` of a commit's requests, checked before each operation but the first (a
/// save of one operation always runs: its own cost is bounded by the store's limits).
package struct SaveDeadline {
    let deadline: ContinuousClock.Instant?

    package init(_ requests: [SaveRequest]) {
        deadline = requests.compactMap(\.deadline).min()
    }

    /// - Throws: ``StoreError`` `executionTimeExceeded` naming the operation that would start past the deadline.
    package func check(before index: Int) throws {
        guard index > 0, let deadline, ContinuousClock.now >= deadline else { return }
        throw StoreError(
            .executionTimeExceeded,
            "The save ran out of time before this operation; nothing was saved. Split it into smaller saves.",
            operationIndex: index)
    }
}
