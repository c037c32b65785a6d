/// How long an operation may still run: ``GraphQLLimits/maxExecutionTime`` from its first check, and not past its
/// task's cancellation or its client's departure (Hummingbird does not cancel a handler whose client went away).
///
/// Checked cooperatively where the executor waits or loops over records (each root field but `__typename`, each
/// batch load), never inside the writers' per-value paths, which the node limit already bounds. The clock starts
/// at the first check, so an operation that never checks (`{ __typename }`) never reads it.
struct ExecutionBudget {
    let limit: Duration
    /// Set by the first check; a save is given it (``SaveRequest/deadline``), so a long one stops too.
    private(set) var deadline: ContinuousClock.Instant?
    /// Set once a save has committed, until the next root field: reading back and writing what it saved is not
    /// cut short by the deadline, since an error there would tell the client a committed save had failed (a
    /// save of thousands of contacts on PostgreSQL took longer than the budget, committed, and answered
    /// `data: null`). The client's departure and the task's cancellation still stop it.
    var pastCommit = false

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
        if now >= deadline, !pastCommit { throw exceeded }
    }

    private var exceeded: FieldError {
        FieldError(message: "The operation ran longer than its \(limit) budget.", code: .executionTimeExceeded)
    }
}
