import CarnetStore
import Synchronization

/// One subscription between payloads: where its history stands and the commits it has not covered.
///
/// `AsyncStream(unfolding:)` asks for one payload at a time, so ``next()`` never runs twice at once; the cursor
/// is copied in and out around each call.
final class SubscriptionFeed: Sendable {
    struct Cursor: Sendable {
        /// The history token of the last page (changeHistory).
        var token: String?
        /// Whether the next page needs no new commit: the first one, or the rest of a page with `hasMore`.
        var ready = true
        /// Whether a payload went out: the first always does, as it carries the token.
        var hasSent = false
        var ended = false
        /// What author exclusion must still deliver, when the client excludes authors (see ``ExclusionGuard``).
        var exclusionGuard = ExclusionGuard()
        /// Pages refused in a row for the server's response budget: the next try waits longer.
        var refusals = 0
        /// What the last refused page had written when it was refused: the next try reads nothing until the budget
        /// grants that much, so refused subscriptions do not each read their page again at every try.
        var refusedBytes = 0
    }

    let service: GraphQLService
    let field: FieldPlan
    let operation: GraphQLService.Operation
    let context: GraphQLRequestContext
    let changes: StoreChanges.AsyncIterator
    /// The `excludedAuthors` argument (both subscriptions have it), read once.
    let excludedAuthors: Set<String>
    private let cursor: Mutex<Cursor>

    init(
        service: GraphQLService, field: FieldPlan, operation: GraphQLService.Operation, context: GraphQLRequestContext,
        changes: StoreChanges
    ) {
        self.service = service
        self.field = field
        self.operation = operation
        self.context = context
        self.changes = changes.makeAsyncIterator()
        let arguments = service.makeExecutor(operation, context).args(field)
        self.excludedAuthors = Set(arguments.strings("excludedAuthors"))
        self.cursor = Mutex(Cursor(token: arguments.string("since")))
    }

    /// The next payload; `nil` when the store closed, the task was cancelled or the subscription failed.
    func next() async -> GraphQLResponse? {
        var cursor = self.cursor.withLock { $0 }
        defer { self.cursor.withLock { [cursor] in $0 = cursor } }
        while !cursor.ended, !Task.isCancelled {
            let response: GraphQLResponse?
            switch SubscriptionField(rawValue: field.code) {
            case .storeDidChange?: response = await nextStoreChange(&cursor)
            case .changeHistory?: response = await nextHistoryPage(&cursor)
            case nil:
                cursor.ended = true
                response = nil
            }
            if let response { return response }
        }
        return nil
    }

    private func nextStoreChange(_ cursor: inout Cursor) async -> GraphQLResponse? {
        guard var change = await changes.next() else {
            cursor.ended = true
            return nil
        }
        // Commits whose authors are all excluded are the client's own: leave them out, and their authors too.
        change.authors.removeAll { $0.map(excludedAuthors.contains) ?? false }
        if change.authors.isEmpty { return nil }
        let executor = service.makeExecutor(operation, context)
        let body = executor.payload(field) { executor.writeStoreChange(change, field) }
        var response = GraphQLResponse(
            body: body, failure: nil, operation: operation, hasErrors: !executor.errors.isEmpty)
        response.changeNoticedAt = change.noticedAt
        return response
    }

    private func nextHistoryPage(_ cursor: inout Cursor) async -> GraphQLResponse? {
        // The first page, and the rest of a page with `hasMore`, answer no commit: they carry no notice time.
        var noticedAt: ContinuousClock.Instant?
        if !cursor.ready {
            guard let change = await changes.next() else {
                cursor.ended = true
                return nil
            }
            noticedAt = change.noticedAt
        }
        // The client's other operations take turns with this page: its many subscriptions read one page at a time
        // or a few, not all at once.
        guard await context.answerGate?.enter() ?? true else { return nil }
        defer { context.answerGate?.leave() }
        let before = cursor
        if cursor.refusedBytes > 0, let admit = context.admitResponseBytes, !admit(cursor.refusedBytes) {
            await backOff(&cursor, from: before, refusedAt: cursor.refusedBytes)
            return nil
        }
        let executor = service.makeExecutor(operation, context)
        let page: ChangeHistoryPage
        do {
            if !cursor.hasSent, !excludedAuthors.isEmpty {
                // Where the subscription starts: the client's own events up to here are delivered (see
                // ``ExclusionGuard``).
                let current = try await executor.store.currentHistoryToken()
                cursor.exclusionGuard.catchUpPosition = HistoryToken(encoded: current)?.position ?? 0
            }
            let (field, token, exclusionGuard) = (field, cursor.token, cursor.exclusionGuard)
            let fetch = {
                try await executor.fetchHistory(field, since: token, limit: 1000, exclusionGuard: exclusionGuard)
            }
            // In one state of the book when the payload reads more than the page, as a query's fields are.
            page =
                Executor.historyReadsMoreThanOnce(field)
                ? try await executor.store.withConsistentReads(fetch) : try await fetch()
        } catch {
            // The client resumes from its last token; the error says why this stream ended.
            cursor.ended = true
            executor.path = [.key(field.responseKey)]
            executor.record(error, at: field)
            let body = executor.payload(field) {
                executor.writer.null()
                return true
            }
            return GraphQLResponse(body: body, failure: nil, operation: operation, hasErrors: true)
        }
        cursor.token = page.token
        cursor.ready = page.hasMore
        guard !cursor.hasSent || !page.events.isEmpty else { return nil }
        cursor.hasSent = true
        if !excludedAuthors.isEmpty {
            // A unified page names unified contacts (whose end logs a delete of their own identifier) and is read
            // from the individual contacts' events (which the backend excludes by): both are sent.
            cursor.exclusionGuard.insert(page.events)
            if let individual = page.individualEvents { cursor.exclusionGuard.insert(individual) }
        }
        let fields = field.selection?.fields(for: "ChangeHistoryPage") ?? []
        let body = executor.payload(field) { executor.writeHistoryPage(page, fields) }
        if executor.growthRefused {
            // The server holds as many answers as it may (an outside tester's find: unread payloads of many
            // subscriptions held hundreds of megabytes past the budget). The page is dropped, its bytes given back,
            // and read again from the same token a little later: nothing is lost, the client only waits.
            await backOff(&cursor, from: before, refusedAt: executor.writer.count)
            return nil
        }
        (cursor.refusals, cursor.refusedBytes) = (0, 0)
        var response = GraphQLResponse(
            body: body, failure: nil, operation: operation, hasErrors: !executor.errors.isEmpty)
        response.changeNoticedAt = noticedAt
        return response
    }

    /// Gives back what a refused page reserved and waits before it is read again from the same token: longer after
    /// each refusal in a row, up to four seconds, with jitter so that refused subscriptions do not all come back at
    /// once.
    private func backOff(_ cursor: inout Cursor, from before: Cursor, refusedAt bytes: Int) async {
        _ = context.admitResponseBytes?(0)
        let refusals = cursor.refusals + 1
        cursor = before
        (cursor.ready, cursor.refusals, cursor.refusedBytes) = (true, refusals, max(bytes, cursor.refusedBytes))
        let wait = 250 * (1 << min(refusals - 1, 4))
        try? await Task.sleep(for: .milliseconds(wait + Int.random(in: 0..<wait)))
    }
}
