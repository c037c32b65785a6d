/// How long an operation may still run: ``GraphQLLimits/maxExecutionTime`` from its start, and not past its
/// task's cancellation (the transport cancels the task when the client goes away).
///
/// Checked cooperatively where the executor waits or loops over records (each root field, each batch load),
/// never inside the writers' per-value paths, which the node limit already bounds.
struct ExecutionBudget: Sendable {
    let deadline: ContinuousClock.Instant
    let limit: Duration
    let isAbandoned: @Sendable () -> Bool

    init(limit: Duration, isAbandoned: @escaping @Sendable () -> Bool = { false }, now: ContinuousClock.Instant = .now) {
        self.limit = limit
        self.isAbandoned = isAbandoned
        self.deadline = now.advanced(by: limit)
    }

    /// - Throws: `CancellationError` when the task is cancelled or the client has gone away, a ``FieldError`` with
    ///   `MAX_EXECUTION_TIME_EXCEEDED` once the deadline has passed.
    func check() throws {
        if Task.isCancelled || isAbandoned() { throw CancellationError() }
        if ContinuousClock.now >= deadline {
            throw FieldError(message: "The operation ran longer than its \(limit) budget.", code: .executionTimeExceeded)
        }
    }
}
