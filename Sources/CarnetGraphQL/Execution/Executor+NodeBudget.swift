extension Executor {
    /// Counts `count` records about to be written against ``GraphQLLimits/maxNodes``, as the response goes.
    ///
    /// The planner's estimate counts an unpaged list (a book's groups or containers, a contact's groups) as 10
    /// records, so a selection that nests them (groups, their members, the members' groups) passes it and can
    /// still return the book's groups squared times the page: this bounds what is written, whatever the data.
    /// Records that would pass the limit are not counted, so a smaller list after a refused one may still fit.
    /// - Throws: a ``FieldError`` with `MAX_NODES_EXCEEDED`, which nulls the list's field.
    func admitNodes(_ count: Int) throws(FieldError) {
        let limit = service.limits.maxNodes
        guard count <= limit - nodesWritten else { throw Self.nodesExceeded(limit) }
        nodesWritten += count
    }

    /// Whether a batch load for `parents` records of `perParent` each could still fit the response: a load that
    /// cannot is not made (its field fails with `MAX_NODES_EXCEEDED` instead of reading what it could not write).
    func nodeLoadFits(parents: Int, perParent: Int) -> Bool {
        let (product, overflow) = parents.multipliedReportingOverflow(by: perParent)
        return !overflow && product <= service.limits.maxNodes - nodesWritten
    }

    static func nodesExceeded(_ limit: Int) -> FieldError {
        FieldError(
            message: "The response reached its limit of \(limit) records; ask for smaller pages or fewer nested lists.",
            code: .tooManyNodes)
    }

    /// Checks the response written so far against ``GraphQLLimits/maxResponseBytes`` and, for a query or a
    /// subscription's payload, against what the server lets it hold (``GraphQLRequestContext/admitResponseBytes``).
    /// - Throws: a ``FieldError`` with `MAX_RESPONSE_BYTES_EXCEEDED` or `SERVER_BUSY`, which nulls the field about
    ///   to be written.
    func admitBytes() throws(FieldError) {
        if let refusal = responseRefusal { throw refusal }
    }

    /// Why the response written so far may not grow, if it may not. One comparison while the response is within
    /// what it was granted; a query asks the server for more in steps of an eighth, so a large answer asks a few
    /// dozen times, not at every field.
    var responseRefusal: FieldError? {
        let count = writer.count
        guard count > grantedBytes else { return nil }
        let limit = service.limits.maxResponseBytes
        if count > limit { return Self.responseTooLarge(limit) }
        if growthRefused { return Self.serverBusy }
        guard let admit = context.admitResponseBytes, operation.operation != .mutation else {
            grantedBytes = limit
            return nil
        }
        let wanted = min(limit, count + max(count / 8, Self.freeResponseBytes))
        guard admit(wanted) else {
            // Refused once, refused to the end: a later, smaller field does not slip into an answer already cut.
            growthRefused = true
            return Self.serverBusy
        }
        grantedBytes = wanted
        return nil
    }

    /// What a query's response may grow to before it first asks the server: most answers never do.
    static let freeResponseBytes = 16 * 1024

    static let serverBusy = FieldError(
        message: "The server holds as many answers as it may; this one was cut short. Try again shortly.",
        code: .serverBusy, extensions: ["retryAfter": .int(1)])

    static func responseTooLarge(_ limit: Int) -> FieldError {
        FieldError(
            message:
                "The response reached its limit of \(limit) bytes; ask for smaller pages or fewer large fields (images, vCards).",
            code: .responseTooLarge)
    }

    /// Checks the operation's time budget and its client's presence before a value that costs real time to write
    /// (a vCard): the budget is otherwise checked where the executor waits, and writing a page of cards ran past it.
    /// Once it has failed, every list stops at its next item (``writingStopped``).
    /// - Throws: a ``FieldError`` with `MAX_EXECUTION_TIME_EXCEEDED`, or `CancellationError` when the client left.
    func checkWritingBudget() throws {
        if let writingStopped { throw writingStopped }
        do {
            try budget.check(context.isAbandoned)
        } catch let error as FieldError {
            writingStopped = error
            throw error
        } catch {
            writingStopped = .cancelled
            throw error
        }
    }

    /// Counts a whole-book read against ``GraphQLLimits/maxBookScans`` as it is made. The planner refuses a query
    /// that names more, but one field under a list of books (`addressBooks { duplicateCandidates }`) is as many
    /// reads as the list has books, which only the run knows (an outside tester's find: one request read every
    /// book the token could open).
    /// - Throws: a ``FieldError`` with `MAX_BOOK_SCANS_EXCEEDED`, which nulls the field.
    func admitBookScan() throws(FieldError) {
        let limit = service.limits.maxBookScans
        guard bookScansMade < limit else {
            throw FieldError(
                message:
                    "This request already read a whole address book \(limit) time(s), its limit; ask for duplicateCandidates of one book per request.",
                code: .tooManyBookScans)
        }
        bookScansMade += 1
    }
}
