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
        /// Events per page: fewer after a page past the response limit, until a page reaches the end of the
        /// history (``shrinkPage(_:from:)``).
        var limit = SubscriptionFeed.pageLimit
    }

    /// Events per payload, as a `changeHistory` query's default page.
    static let pageLimit = 1_000

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
        // A page of images or vCards is built as a large query's answer is: on the lane, in its turn (8 clients
        // catching up such pages held the cooperative pool for 28 s; an outside tester's find).
        let built: BuiltPage
        if AnswerWeight.isHeavy([field], estimatedNodes: cursor.limit) {
            guard let page = await AnswerWeight.build({ await buildHistoryPage(&cursor, noticedAt: noticedAt) })
            else { return nil }
            built = page
        } else {
            built = await buildHistoryPage(&cursor, noticedAt: noticedAt)
        }
        // Outside the turn: a refused page waits without holding one.
        if let refused = built.refusedBytes { await backOff(&cursor, from: before, refusedAt: refused) }
        return built.response
    }

    /// A history page built, or refused for the response budget (``backOff(_:from:refusedAt:)`` then follows).
    private struct BuiltPage: Sendable {
        var response: GraphQLResponse?
        var refusedBytes: Int?
    }

    /// Reads the page from the cursor's token and writes its payload.
    private func buildHistoryPage(_ cursor: inout Cursor, noticedAt: ContinuousClock.Instant?) async -> BuiltPage {
        let before = cursor
        let executor = service.makeExecutor(operation, context)
        let page: ChangeHistoryPage
        do {
            if !cursor.hasSent, !excludedAuthors.isEmpty {
                // Where the subscription starts: the client's own events up to here are delivered (see
                // ``ExclusionGuard``).
                let current = try await executor.store.currentHistoryToken()
                cursor.exclusionGuard.catchUpPosition = HistoryToken(encoded: current)?.position ?? 0
            }
            let (field, token, exclusionGuard, limit) = (field, cursor.token, cursor.exclusionGuard, cursor.limit)
            let fetch = {
                try await executor.fetchHistory(field, since: token, limit: limit, exclusionGuard: exclusionGuard)
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
            return BuiltPage(response: GraphQLResponse(body: body, failure: nil, operation: operation, hasErrors: true))
        }
        cursor.token = page.token
        cursor.ready = page.hasMore
        guard !cursor.hasSent || !page.events.isEmpty else { return BuiltPage() }
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
            return BuiltPage(refusedBytes: executor.writer.count)
        }
        if executor.errors.contains(where: { $0.code == .responseTooLarge }), shrinkPage(&cursor, from: before) {
            return BuiltPage()
        }
        (cursor.refusals, cursor.refusedBytes) = (0, 0)
        if !page.hasMore { cursor.limit = Self.pageLimit }
        var response = GraphQLResponse(
            body: body, failure: nil, operation: operation, hasErrors: !executor.errors.isEmpty)
        response.changeNoticedAt = noticedAt
        return BuiltPage(response: response)
    }

    /// A page past the response limit is read again from the same token with a quarter of its events, at once;
    /// `false` when it held one event (the subscription then ends with the error: that event's selected values
    /// alone pass the limit, and the client must ask for fewer large fields). Sent as it was, the page's error went
    /// out with a null page and the token moved past its events, which no replica then heard of (an outside
    /// tester's find).
    private func shrinkPage(_ cursor: inout Cursor, from before: Cursor) -> Bool {
        guard cursor.limit > 1 else {
            cursor.ended = true
            return false
        }
        let limit = max(1, cursor.limit / 4)
        cursor = before
        (cursor.limit, cursor.ready) = (limit, true)
        return true
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
