import CarnetStore
import GraphQL

/// Carnet's GraphQL service over a ``ContactStore``: parse and validate with GraphQLSwift (cached), execute with
/// Carnet's planner, write JSON directly.
///
/// ```swift
/// let service = GraphQLService(store: store)
/// let response = await service.execute(GraphQLRequestBody(query: "{ contacts(first: 10) { nodes { givenName } } }"))
/// print(String(decoding: response.body, as: UTF8.self))
/// ```
public final class GraphQLService: Sendable {
    public let store: any ContactStore
    let core: GraphQLServiceCore

    /// - Parameter onUnexpectedError: called with errors that are not the client's fault (to log at `.error`);
    ///   the client sees `INTERNAL_SERVER_ERROR` without details.
    public init(
        store: any ContactStore, limits: GraphQLLimits = GraphQLLimits(), options: GraphQLOptions = GraphQLOptions(),
        onUnexpectedError: @escaping @Sendable (any Error) -> Void = { _ in }
    ) {
        self.store = store
        self.core = GraphQLServiceCore(limits: limits, options: options, unexpectedErrorHandler: onUnexpectedError)
    }

    /// The limits in force.
    public var limits: GraphQLLimits { core.limits }

    /// A request resolved to the operation it runs: what transports need to know before executing.
    public struct Operation: Sendable {
        public let kind: OperationKind
        public let name: String?
        let prepared: PreparedDocument
        let definition: OperationDefinition
        let variables: [String: JSONValue]
    }

    /// Resolves persisted queries, parses and validates (cached by text), picks the operation and coerces the
    /// variables. - Throws: ``GraphQLRequestError`` for the phase that failed.
    public func operation(for request: GraphQLRequestBody) throws(GraphQLRequestError) -> Operation {
        let (prepared, definition) = try resolve(request)
        let slots = prepared.variableSlots(of: definition)
        let variables = try InputCoercion(schema: core.index).coerceVariables(slots, request.variables)
        return Operation(
            kind: OperationKind(definition.operation), name: definition.name?.value, prepared: prepared,
            definition: definition, variables: variables)
    }

    /// The kind of the operation a request names, when its document is valid and names one, whatever its variables:
    /// a transport that refuses some kinds (mutations over GET) says so before a variable's fault.
    public func operationKind(for request: GraphQLRequestBody) -> OperationKind? {
        (try? resolve(request)).map { OperationKind($0.1.operation) }
    }

    /// The request's document, prepared (cached by text), and the operation it names.
    private func resolve(_ request: GraphQLRequestBody) throws(GraphQLRequestError) -> (
        PreparedDocument, OperationDefinition
    ) {
        let text = try core.queryText(request)
        switch core.preparer.prepare(text) {
        case .failed(let error): throw error
        case .ready(let prepared): return (prepared, try prepared.operation(named: request.operationName))
        }
    }

    /// Executes a query or mutation. Request errors (bad parameters, parse, validation, coercion, limits) come
    /// back as a response without `data`, with ``GraphQLResponse/failure`` set.
    public func execute(_ request: GraphQLRequestBody, context: GraphQLRequestContext = GraphQLRequestContext()) async
        -> GraphQLResponse
    {
        let operation: Operation
        do {
            operation = try self.operation(for: request)
        } catch {
            return GraphQLResponse(error)
        }
        return await execute(operation, context: context)
    }

    /// Executes an operation resolved by ``operation(for:)``.
    public func execute(_ operation: Operation, context: GraphQLRequestContext = GraphQLRequestContext()) async
        -> GraphQLResponse
    {
        if let refusal = refuse(operation, context) { return refusal }
        guard operation.kind != .subscription else {
            return GraphQLResponse(
                GraphQLRequestError(
                    .operationNotAllowed,
                    [
                        ResponseError(
                            message: "Subscriptions are served over WebSocket (graphql-transport-ws).",
                            code: .operationNotAllowed)
                    ]),
                operation: operation)
        }
        let executor = makeExecutor(operation, context)
        let fields: [FieldPlan]
        do {
            fields = try executor.planRoot()
        } catch {
            return GraphQLResponse(error, operation: operation)
        }
        let body: [UInt8]
        if let failure = executor.rootFailure {
            body = executor.failedRoot(failure)
        } else {
            if operation.kind == .query {
                // What a query's pages read of large values is bounded as its response is (twice over: a unified
                // contact reads its members' values, which it shows once).
                let (twice, overflow) = limits.maxResponseBytes.multipliedReportingOverflow(by: 2)
                let allowance = ReadAllowance(limit: overflow ? .max : twice)
                body = await ReadAllowance.$current.withValue(allowance) {
                    guard AnswerWeight.isHeavy(fields, estimatedNodes: executor.estimatedNodes) else {
                        return await executor.runQuery(fields)
                    }
                    // Cancelled while it waited its turn: run where it is, to stop at its first check.
                    guard let body = await AnswerWeight.build({ await executor.runQuery(fields) }) else {
                        return await executor.runQuery(fields)
                    }
                    return body
                }
            } else {
                body = await executor.run(fields)
            }
        }
        var response = GraphQLResponse(
            body: body, failure: nil, operation: operation, hasErrors: !executor.errors.isEmpty)
        response.wasCutShort = executor.growthRefused
        response.committed = executor.committedMutation
        return response
    }

    func refuse(_ operation: Operation, _ context: GraphQLRequestContext) -> GraphQLResponse? {
        guard !context.allowedOperations.contains(operation.kind) else { return nil }
        return GraphQLResponse(
            GraphQLRequestError(
                .operationNotAllowed,
                [
                    ResponseError(
                        message: "\(operation.kind.rawValue.capitalized) operations are not allowed here.",
                        code: context.disallowedCode)
                ]),
            operation: operation)
    }

    func makeExecutor(_ operation: Operation, _ context: GraphQLRequestContext) -> Executor {
        Executor(
            store: context.store ?? store, service: core, prepared: operation.prepared, operation: operation.definition,
            variables: operation.variables, context: context)
    }
}

/// A response body and what transports need to know about it.
public struct GraphQLResponse: Sendable {
    /// The JSON response: `{"data":...,"errors":[...]}`, or `{"errors":[...]}` when nothing executed.
    public var body: [UInt8]
    /// Set when nothing executed, with the phase that failed.
    public var failure: GraphQLRequestError.Kind?
    public var operationKind: OperationKind?
    public var operationName: String?
    /// Whether the response has `errors`.
    public var hasErrors: Bool
    /// When nothing executed: the `errors` array alone, for transports that carry errors without a response
    /// around them (graphql-transport-ws's `error` message).
    public var requestErrors: [UInt8]?
    /// When nothing executed: the code of the first error (`FORBIDDEN`, `GRAPHQL_PARSE_FAILED`, ...).
    public var requestErrorCode: String?
    /// Whether the caller's budget refused this query's answer the memory to grow
    /// (``GraphQLRequestContext/admitResponseBytes``): the answer is partial, its fields past the cut null with
    /// `SERVER_BUSY`. Transports refuse it whole, as a busy server: the client retries the query, not a part of it.
    public var wasCutShort = false
    /// Whether a mutation of this request committed: its answer is the only word of what it wrote, so a transport
    /// sends it whatever its budget says (a refusal's "try again" would make the client write it twice).
    public var committed = false
    /// For a subscription payload that follows commits: when the process learned of the earliest of them
    /// (``StoreChange/noticedAt``), so the transport can measure commit-to-subscriber latency.
    public var changeNoticedAt: ContinuousClock.Instant?

    init(body: [UInt8], failure: GraphQLRequestError.Kind?, operation: GraphQLService.Operation?, hasErrors: Bool) {
        self.body = body
        self.failure = failure
        self.operationKind = operation?.kind
        self.operationName = operation?.name
        self.hasErrors = hasErrors
    }

    /// The response for a request that failed before executing.
    public init(_ error: GraphQLRequestError, operation: GraphQLService.Operation? = nil) {
        let errors = error.errorsJSON
        self.init(
            body: Array(#"{"errors":"#.utf8) + errors + [UInt8(ascii: "}")], failure: error.kind,
            operation: operation, hasErrors: true)
        self.requestErrors = errors
        self.requestErrorCode = error.errors.first?.code.rawValue
    }

    /// Whether the response has a `data` member.
    public var hasData: Bool { failure == nil }
}
