/// How long an operation may still run: ``GraphQLLimits/maxExecutionTime`` from its first check, and not past its
/// task's cancellation or its client's departure (Hummingbird does not cancel a handler whose client went away).
///
/// Checked cooperatively where the executor waits or loops over records (each root field but `__typename`, each
/// batch load), never inside the writers' per-value paths, which the node limit already bounds. The clock starts
/// at the first check, so an operation that never checks (`{ __typename }`) never reads it.
struct ExecutionBudget {
    let limit: Duration
    private var deadline: ContinuousClock.Instant?

    init(limit: Duration) { self.limit = limit }

    /// - Parameter isAbandoned: the request context's test of its client (read from the context rather than
    ///   copied here: one closure fewer to retain per request).
    /// - Throws: `CancellationError` when the task is cancelled or the client has gone away, a ``FieldError`` with
    ///   `MAX_EXECUTION_TIME_EXCEEDED` once the deadline has passed.
    mutating func check(_ isAbandoned: @Sendable () -> Bool) throws {
        if Task.isCancelled || isAbandoned() { throw CancellationError() }
        let now = ContinuousClock.now
        guard let deadline else {
            deadline = now.advanced(by: limit)
            if limit <= .zero { throw exceeded }
            return
        }
        if now >= deadline { throw exceeded }
    }

    private var exceeded: FieldError {
        FieldError(message: "The operation ran longer than its \(limit) budget.", code: .executionTimeExceeded)
    }
}
