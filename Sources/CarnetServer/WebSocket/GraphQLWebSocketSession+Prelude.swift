import CarnetGraphQL
import CarnetStore

extension GraphQLWebSocketSession {
    /// What the message loop does for an operation before its task runs.
    enum Prelude: Sendable {
        /// The request could not be parsed or validated: its `error` payload.
        case invalid([UInt8], started: ContinuousClock.Instant)
        /// A query or mutation, for its task to run.
        case parsed(GraphQLService.Operation, started: ContinuousClock.Instant)
        /// A subscription that already listens for commits (or its refusal), with the book it holds open.
        case subscribed(
            GraphQLService.Operation, GraphQLService.Outcome, GraphQLRequestContext, started: ContinuousClock.Instant,
            SubscriptionQuota.Lease, ResponseMemoryBudget.Reservation)
        /// A subscription past its principal's limit (``ServerConfiguration/maxSubscriptionsPerPrincipal``).
        case tooManySubscriptions
        /// The caller's address book could not be opened; `deleted` when it no longer exists.
        case unavailable(deleted: Bool)
    }

    /// Parses the operation and, for a subscription, opens the book and starts listening. It awaits only the
    /// store, never another task and never the client (it writes nothing), so a slow client or a busy pool cannot
    /// hold the socket's loop here.
    func prelude(_ payload: [String: JSONValue], _ identity: AccessIdentity) async -> Prelude {
        let started = ContinuousClock.now
        let service = dependencies.service
        let operation: GraphQLService.Operation
        do {
            var body = try GraphQLRequestBody(json: .object(payload))
            body.persistedQueryScope = identity.principalID
            operation = try service.operation(for: body)
        } catch {
            return .invalid(error.errorsJSON, started: started)
        }
        guard operation.kind == .subscription else { return .parsed(operation, started: started) }
        guard let lease = dependencies.subscriptionQuota.acquire(identity.principalID) else {
            return .tooManySubscriptions
        }
        let store: any ContactStore
        do {
            store = try await dependencies.books.acquire(identity.book)
        } catch {
            return .unavailable(deleted: Self.isDeletedBook(error))
        }
        var context = identity.graphQLContext(store: store, tokens: dependencies.tokens, books: dependencies.books)
        // Each payload counts in the budget while it is built and until the socket takes it; one refused is read
        // again later (an outside tester's find: 30 unread subscriptions held 250 MiB past a 4 MiB budget).
        let reservation = dependencies.responseBudget.reservation()
        context.admitResponseBytes = { reservation.resize(to: $0) }
        context.answerGate = requestGate
        return .subscribed(
            operation, await service.run(operation, context: context), context, started: started, lease, reservation)
    }

    /// Whether opening the caller's book failed because the book was deleted (since its identity was cached).
    static func isDeletedBook(_ error: any Error) -> Bool {
        (error as? StoreError)?.code == .recordDoesNotExist
    }
}
