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
        let executor = makeExecutor(operation, context)
        let fields: [FieldPlan]
        do {
            fields = try executor.planRoot()
        } catch {
            return .single(GraphQLResponse(error, operation: operation))
        }
        // A null `@skip`/`@include` condition where the subscription's selection is collected: the subscription
        // cannot start (graphql-js's subscribe answers such errors without a stream).
        if let failure = executor.rootFailure {
            return .single(
                GraphQLResponse(
                    GraphQLRequestError(
                        .variableCoercionFailed, [failure.responseError(operation.prepared.source, path: [])]),
                    operation: operation))
        }
        guard let field = fields.first(where: { !$0.isTypename }) else {
            return .single(
                GraphQLResponse(
                    GraphQLRequestError(
                        .validationFailed,
                        [
                            ResponseError(
                                message: "A subscription selects one field.", code: .validationFailed)
                        ]), operation: operation))
        }
        if let error = executor.argumentError(field) {
            return .single(
                GraphQLResponse(
                    GraphQLRequestError(
                        .variableCoercionFailed,
                        [
                            ResponseError(
                                message: error.message, code: error.code)
                        ]), operation: operation))
        }
        var context = context
        var lease: BookLease?
        if let bookID = executor.args(field).string("addressBookId") {
            do {
                let viewer = try executor.requireViewer()
                guard let visible = try await viewer.book(id: bookID) else {
                    throw StoreError.noSuchBook(bookID)
                }
                context.store = try await viewer.books.acquire(visible.book)
                lease = BookLease(books: viewer.books, bookID: bookID)
            } catch {
                executor.path = [.key(field.responseKey)]
                executor.record(error, at: field)
                return .single(
                    GraphQLResponse(GraphQLRequestError(.operationNotAllowed, executor.errors), operation: operation))
            }
        }
        // Subscribe before the first read, so no commit falls between the catch-up and the live stream.
        let feed = SubscriptionFeed(
            service: self, field: field, operation: operation, context: context,
            changes: await (context.store ?? store).changes())
        // Demand-driven: the next payload is produced only when the transport asks for it, that is after it wrote
        // the previous one. A reader that falls behind gets later pages that cover what piled up (the token
        // carries it), never a buffer that drops the oldest. The book stays open while the stream exists.
        let heldLease = lease
        return .stream(
            AsyncStream(unfolding: {
                withExtendedLifetime(heldLease) {}
                return await feed.next()
            }))
    }

    /// The address book a subscription names with `addressBookId`; `nil` for the token's default book.
    public func subscriptionBookID(_ operation: Operation, context: GraphQLRequestContext) -> String? {
        guard operation.kind == .subscription else { return nil }
        let executor = makeExecutor(operation, context)
        guard let fields = try? executor.planRoot(), let field = fields.first(where: { !$0.isTypename }) else {
            return nil
        }
        return executor.args(field).string("addressBookId")
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
            case nil: guard otherField(plan, "StoreChange") else { return false }
            }
        }
        writer.endObject()
        return true
    }
}

/// Holds a book open from the pool for as long as a subscription's stream exists.
final class BookLease: Sendable {
    let books: any AddressBookStores
    let bookID: String

    init(books: any AddressBookStores, bookID: String) {
        self.books = books
        self.bookID = bookID
    }

    deinit {
        let (books, bookID) = (books, bookID)
        Task { await books.release(bookID) }
    }
}
