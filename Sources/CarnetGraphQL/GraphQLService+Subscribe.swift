import CarnetStore

extension GraphQLService {
    /// What running an operation over a streaming transport gives.
    public enum Outcome: Sendable {
        /// A query or mutation: one response.
        case single(GraphQLResponse)
        /// A subscription: one response per event, until the stream ends or is cancelled.
        case stream(AsyncStream<GraphQLResponse>)
    }

    /// Runs any operation for a streaming transport (WebSocket): subscriptions stream, queries and mutations
    /// answer once. Errors before execution come back as a single response with ``GraphQLResponse/failure``.
    public func run(_ operation: Operation, context: GraphQLRequestContext = GraphQLRequestContext()) async -> Outcome {
        guard operation.kind == .subscription else { return .single(await execute(operation, context: context)) }
        if let refusal = refuse(operation, context) { return .single(refusal) }
        let fields: [FieldPlan]
        do {
            fields = try makeExecutor(operation, context).planRoot()
        } catch {
            return .single(GraphQLResponse(error, operation: operation))
        }
        guard let field = fields.first(where: { !$0.isTypename }) else {
            return .single(GraphQLResponse(GraphQLRequestError(.validationFailed, [ResponseError(
                message: "A subscription selects one field.", code: .validationFailed)]), operation: operation))
        }
        let executor = makeExecutor(operation, context)
        if let error = executor.argumentError(field) {
            return .single(GraphQLResponse(GraphQLRequestError(.variableCoercionFailed, [ResponseError(
                message: error.message, code: error.code)]), operation: operation))
        }
        // Subscribe before the first read, so no commit falls between the catch-up and the live stream.
        let changes = await store.changes()
        let (stream, continuation) = AsyncStream<GraphQLResponse>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let task = Task {
            switch SubscriptionField(rawValue: field.code) {
            case .storeDidChange?:
                await self.streamStoreChanges(changes, field, operation, context, continuation)
            case .changeHistory?:
                await self.streamHistory(changes, field, operation, context, continuation)
            case nil:
                break
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return .stream(stream)
    }

    private func streamStoreChanges(
        _ changes: AsyncStream<StoreChange>, _ field: FieldPlan, _ operation: Operation, _ context: GraphQLRequestContext,
        _ continuation: AsyncStream<GraphQLResponse>.Continuation
    ) async {
        let excluded = Set(makeExecutor(operation, context).args(field).strings("excludedAuthors"))
        for await change in changes {
            // A commit every author of which is excluded is the client's own: leave it out.
            if !change.authors.isEmpty, change.authors.allSatisfy({ $0.map(excluded.contains) ?? false }) { continue }
            let executor = makeExecutor(operation, context)
            let body = executor.payload(field) { executor.writeStoreChange(change, field) }
            continuation.yield(GraphQLResponse(body: body, failure: nil, operation: operation, hasErrors: !executor.errors.isEmpty))
        }
    }

    private func streamHistory(
        _ changes: AsyncStream<StoreChange>, _ field: FieldPlan, _ operation: Operation, _ context: GraphQLRequestContext,
        _ continuation: AsyncStream<GraphQLResponse>.Continuation
    ) async {
        var token = makeExecutor(operation, context).args(field).string("since")
        var iterator = changes.makeAsyncIterator()
        var first = true
        while !Task.isCancelled {
            let executor = makeExecutor(operation, context)
            let page: ChangeHistoryPage
            do {
                page = try await executor.fetchHistory(field, since: token, limit: 1000)
            } catch {
                executor.path = [.key(field.responseKey)]
                executor.record(error, at: field)
                let body = executor.payload(field) { executor.writer.null(); return true }
                continuation.yield(GraphQLResponse(body: body, failure: nil, operation: operation, hasErrors: true))
                return
            }
            token = page.token
            // The first payload always goes out (it carries the token); later ones only with events.
            if first || !page.events.isEmpty {
                let fields = field.selection?.fields(for: "ChangeHistoryPage") ?? []
                let body = executor.payload(field) { executor.writeHistoryPage(page, fields) }
                continuation.yield(GraphQLResponse(body: body, failure: nil, operation: operation, hasErrors: !executor.errors.isEmpty))
                first = false
            }
            if page.hasMore { continue }
            guard await iterator.next() != nil else { return }
        }
    }
}

extension Executor {
    /// A whole response for one subscription event: `{"data":{"key":<value>}}`.
    func payload(_ field: FieldPlan, _ value: () -> Bool) -> [UInt8] {
        writer.raw(Array(#"{"data":"#.utf8))
        let mark = writer.mark
        writer.beginObject()
        writer.rawKey(field.quotedKey)
        path = [.key(field.responseKey)]
        if value() {
            writer.endObject()
        } else {
            writer.rollBack(to: mark)
            writer.null()
        }
        return finish()
    }

    func writeStoreChange(_ change: StoreChange, _ field: FieldPlan) -> Bool {
        writer.beginObject()
        for plan in field.selection?.fields(for: "StoreChange") ?? [] {
            switch StoreChangeField(rawValue: plan.code) {
            case .historyToken?: leaf(plan) { $0.string(change.token) }
            case .authors?: leaf(plan) { $0.value(.array(change.authors.map { $0.map(JSONValue.string) ?? .null })) }
            case nil: _ = typename(plan, "StoreChange")
            }
        }
        writer.endObject()
        return true
    }
}
