import CarnetStore
import GraphQL

/// What the caller (the HTTP or WebSocket layer) allows one request to do.
public struct GraphQLRequestContext: Sendable {
    /// The operation kinds this request may run; others fail with `OPERATION_NOT_ALLOWED` (a mutation over GET)
    /// or `FORBIDDEN` (a token without write scope) before anything executes.
    public var allowedOperations: Set<OperationKind> = OperationKind.all
    /// The error code when an operation kind is not allowed.
    public var disallowedCode: ErrorCode = .operationNotAllowed
    /// Decides a save's transaction author from the one requested (`nil` when none): return the author to record,
    /// or throw ``AuthorRejected`` (the save fails with `FORBIDDEN`, nothing written).
    public var authorizeAuthor: @Sendable (String?) throws(AuthorRejected) -> String? = { $0 }
    /// Whether the client has gone away (its connection or stream closed): the executor checks this with its
    /// time budget and stops, as it does when its task is cancelled. Must be cheap and safe from any thread.
    public var isAbandoned: @Sendable () -> Bool = { false }
    /// Asked, with the size it would grow to, before a query's response grows past what it was granted so far;
    /// `false` cuts the response short with `SERVER_BUSY`. The caller's budget for the memory of answers being
    /// built and held, so that many large queries at once cannot spend the process's memory. `nil`: bounded by
    /// ``GraphQLLimits/maxResponseBytes`` alone. A subscription's payload is asked too (asked `0`, it gives back what
    /// it held): one refused is dropped and read again later from the same token. Mutations are not asked: a
    /// save's answer follows its commit.
    public var admitResponseBytes: (@Sendable (Int) -> Bool)?
    /// Turns for building answers that the caller shares among a client's operations (a socket's queries and its
    /// subscriptions' pages), so that a client's many subscriptions do not all read their pages at once.
    public var answerGate: (any AnswerGate)?
    /// The address book the request's root fields read and write: the caller's default book on a server of many
    /// books. `nil` means the service's own store (a single-store service, tests, tools).
    public var store: (any ContactStore)?
    /// The principal behind the request, on a service of many; `nil` on a single-store service, where `viewer`
    /// and `addressBooks` have nothing to say.
    public var viewer: GraphQLViewer?
    /// Told, after it is written, of each access a management mutation took away, so the caller ends what it ends
    /// at once (``AccessNarrowing``).
    public var accessNarrowed: @Sendable (AccessNarrowing) -> Void = { _ in }

    public init() {}
}

/// Turns for the work of building answers.
public protocol AnswerGate: Sendable {
    /// Waits for a turn; `false` when the task was cancelled first (no turn taken).
    func enter() async -> Bool
    /// Gives a turn back.
    func leave()
}

/// A refused transaction author.
public struct AuthorRejected: Error, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// The kinds of GraphQL operation.
public enum OperationKind: String, Sendable, Hashable, CaseIterable {
    case query, mutation, subscription

    /// Every kind, built once (a request context starts from it).
    static let all = Set(allCases)

    init(_ operation: OperationType) {
        self =
            switch operation {
            case .query: .query
            case .mutation: .mutation
            case .subscription: .subscription
            }
    }
}

/// Settings of the executor that are not limits.
public struct GraphQLOptions: Sendable, Hashable {
    /// What `displayName(order: USER_DEFAULT)` means. Default: given name first.
    public var defaultDisplayNameOrder: DisplayNameOrder = .givenNameFirst

    public init() {}
}

/// The order of the parts of a displayed name.
public enum DisplayNameOrder: String, Sendable, Hashable {
    case givenNameFirst, familyNameFirst
}
