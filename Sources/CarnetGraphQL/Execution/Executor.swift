import CarnetStore
import Foundation
import GraphQL

/// Executes one operation and writes the response JSON as it goes, in selection order.
///
/// Each root field resolves its value, batch-loads what the selection needs below it (one store query per kind
/// of relation and level, whatever the page size), then writes synchronously. A field error nulls the field; a
/// null in a non-null field rolls the output back to the nearest nullable parent.
final class Executor {
    /// The book being read or written: the request's, or another one inside `addressBook(id:)`.
    var store: any ContactStore
    let service: GraphQLServiceCore
    let prepared: PreparedDocument
    let operation: OperationDefinition
    let variables: [String: JSONValue]
    let context: GraphQLRequestContext
    @exclusivity(unchecked) var budget: ExecutionBudget

    // An executor runs on one task and its writers never hold two accesses to these at once; the runtime's
    // exclusivity check on each access (the writer is touched for every key and value) was a tenth of writing
    // a contact.
    @exclusivity(unchecked) var writer = JSONWriter(capacity: 4096)
    @exclusivity(unchecked) var errors: [ResponseError] = []
    /// What collecting the operation's root selection set failed on: its data is null (``failedRoot(_:)``).
    private(set) var rootFailure: CollectionFailure?
    /// The records the operation may return, as ``NodeLimit`` counts them (set by ``planRoot()``).
    private(set) var estimatedNodes = 0
    @exclusivity(unchecked) var path: [PathElement] = []
    /// Records admitted to the response so far (``admitNodes(_:)``).
    @exclusivity(unchecked) var nodesWritten = 0
    /// Bytes the response may reach before it asks again (``responseRefusal``).
    @exclusivity(unchecked) var grantedBytes: Int
    /// The save the current root mutation field committed, if it did: errors recorded after it say so.
    var committedSave: SaveResult?
    /// Whether the current root mutation field has written (a save, or a book's, grant's, token's or principal's
    /// change), so that errors recorded after it say so.
    var committedMutation = false
    /// Whether the server refused this query's response more memory (`SERVER_BUSY`).
    @exclusivity(unchecked) var growthRefused = false
    /// Set when the time budget ran out (or the client left) while values were being written: lists stop there.
    @exclusivity(unchecked) var writingStopped: FieldError?
    /// Whole-book reads made so far (``admitBookScan()``).
    @exclusivity(unchecked) var bookScansMade = 0
    /// Whether this query reads each book in one state (``runQuery(_:)``), other books' too.
    var consistentReads = false

    /// Batch-loaded relations of the current store, filled before the writers run.
    var loads = BatchLoads()
    /// Argument values bound to this request's variables, by plan.
    private var errorPositions: [Int: [SourcePosition]] = [:]
    @exclusivity(unchecked) private var boundArguments: [Int: (ArgumentValues, FieldError?)] = [:]

    init(
        store: any ContactStore, service: GraphQLServiceCore, prepared: PreparedDocument,
        operation: OperationDefinition,
        variables: [String: JSONValue], context: GraphQLRequestContext
    ) {
        self.store = store
        self.service = service
        self.prepared = prepared
        self.operation = operation
        self.variables = variables
        self.context = context
        self.budget = ExecutionBudget(limit: service.limits.maxExecutionTime)
        self.grantedBytes = min(Executor.freeResponseBytes, service.limits.maxResponseBytes)
    }

    var rootTypeName: String { service.index.rootType(operation.operation) ?? "Query" }

    /// A field's argument values for this request.
    func args(_ plan: FieldPlan) -> ArgumentValues { binding(plan).0 }

    /// The error a field's arguments gave, if they did not coerce.
    func argumentError(_ plan: FieldPlan) -> FieldError? { binding(plan).1 }

    private func binding(_ plan: FieldPlan) -> (ArgumentValues, FieldError?) {
        switch plan.arguments {
        case .resolved(let values, let error): return (values, error)
        case .bound(let binding):
            if let bound = boundArguments[plan.id] { return bound }
            let bound: (ArgumentValues, FieldError?)
            do throws(FieldError) {
                bound = (
                    ArgumentValues(
                        values: try InputCoercion(schema: service.index).arguments(
                            binding,
                            variables: variables)), nil
                )
            } catch {
                bound = (.none, error)
            }
            boundArguments[plan.id] = bound
            return bound
        }
    }

    /// Plans the root fields (cached with the document); node-limit problems come back as a request error. A
    /// failure collecting the root selection set (a null `@skip`/`@include` condition) is kept in ``rootFailure``.
    func planRoot() throws(GraphQLRequestError) -> [FieldPlan] {
        let (fields, failure) = prepared.plans(
            for: operation, variables: variables, index: service.index, rootType: rootTypeName)
        rootFailure = failure
        let nodes = NodeLimit.count(fields, arguments: args)
        estimatedNodes = nodes
        if nodes > service.limits.maxNodes {
            throw Self.refusal(
                "This query may return \(nodes) records; the limit is \(service.limits.maxNodes). Ask for smaller pages.",
                .tooManyNodes)
        }
        let scans = NodeLimit.bookScans(fields)
        if scans > service.limits.maxBookScans {
            throw Self.refusal(
                "This query asks for duplicateCandidates \(scans) times; each reads the whole address book, and a request may do that \(service.limits.maxBookScans) time(s).",
                .tooManyBookScans)
        }
        let introspections = fields.count { $0.name == "__schema" }
        if introspections > service.limits.maxSchemaIntrospections {
            throw Self.refusal(
                "This query asks for __schema \(introspections) times; a request may do that \(service.limits.maxSchemaIntrospections) time(s).",
                .tooManyIntrospections)
        }
        if operation.operation == .mutation, !context.allowedOperations.contains(.query),
            let (plan, path) = WriteOnlyAnswers.firstRead(in: fields)
        {
            throw GraphQLRequestError(
                .operationNotAllowed,
                [
                    ResponseError(
                        message:
                            "A token without the read scope sees what a mutation did, not the address book's contents: \(path.joined(separator: ".")) cannot be selected.",
                        code: context.disallowedCode, locations: positions(plan))
                ])
        }
        return fields
    }

    /// A plan over one of the request limits: refused whole, before anything runs.
    private static func refusal(_ message: String, _ code: ErrorCode) -> GraphQLRequestError {
        GraphQLRequestError(.validationFailed, [ResponseError(message: message, code: code)])
    }

    /// Runs a query or mutation and returns the response body.
    func run(_ fields: [FieldPlan]) async -> [UInt8] {
        writer.raw(Array(#"{"data":"#.utf8))
        let mark = writer.mark
        writer.beginObject()
        var complete = true
        for field in fields {
            path = [.key(field.responseKey)]
            if await !rootField(field) {
                complete = false
                break
            }
        }
        if complete {
            writer.endObject()
        } else {
            writer.rollBack(to: mark)
            writer.null()
        }
        return finish()
    }

    /// The response of an operation whose root selection set could not be collected: `data` null, as when a
    /// non-null root field fails, with the error (no path: no field was executing).
    func failedRoot(_ failure: CollectionFailure) -> [UInt8] {
        writer.raw(Array(#"{"data":null"#.utf8))
        errors.append(failure.responseError(prepared.source, path: []))
        return finish()
    }

    /// Appends `errors` and closes the response.
    func finish() -> [UInt8] {
        if !errors.isEmpty {
            writer.raw(Array(#","errors":"#.utf8))
            writer.beginArray()
            for error in errors {
                writer.comma()
                error.write(to: &writer)
            }
            writer.endArray()
        }
        writer.raw([UInt8(ascii: "}")])
        return writer.bytes
    }

    /// Resolves, loads and writes one root field. `false` when it failed and is non-null.
    private func rootField(_ plan: FieldPlan) async -> Bool {
        writer.rawKey(plan.quotedKey)
        if plan.isTypename {
            writer.string(rootTypeName)
            return true
        }
        // A root mutation field starts before any save of its own: the last one's commit says nothing about it.
        (budget.pastCommit, committedSave, committedMutation) = (false, nil, false)
        return await resolvedField(plan) {
            switch operation.operation {
            case .mutation: try await mutationField(plan)
            default: try await queryField(plan)
            }
        }
    }

    /// Writes the value of a field that resolves (and loads) asynchronously, its key already written: `body`'s
    /// value, or `null` when it fails (recorded), or `false` to propagate the failure of a non-null field.
    func resolvedField(_ plan: FieldPlan, _ body: () async throws -> Bool) async -> Bool {
        let mark = writer.mark
        do {
            if let error = argumentError(plan) { throw error }
            try budget.check(context.isAbandoned)
            try admitBytes()
            if try await body() { return true }
        } catch {
            record(error, at: plan)
        }
        writer.rollBack(to: mark)
        if plan.type.isNonNull { return false }
        writer.null()
        return true
    }

    /// Writes `"key":value` for a field whose value `body` writes; handles errors and null propagation.
    /// `body` returns `false` when a non-null value inside it failed (it rolled nothing back itself).
    @inline(__always)
    func field(_ plan: FieldPlan, _ body: () throws -> Bool) -> Bool {
        writer.rawKey(plan.quotedKey)
        path.append(.key(plan.responseKey))
        defer { path.removeLast() }
        let mark = writer.mark
        do {
            if let error = argumentError(plan) { throw error }
            try admitBytes()
            if try body() { return true }
        } catch {
            record(error, at: plan)
        }
        writer.rollBack(to: mark)
        if plan.type.isNonNull { return false }
        writer.null()
        return true
    }

    /// Writes a list; an item that fails nulls itself, or the whole list when items are non-null.
    @inline(__always)
    func list<Item>(_ items: [Item], _ plan: FieldPlan, _ item: (Item) throws -> Bool) rethrows -> Bool {
        try list(count: items.count, plan) { try item(items[$0]) }
    }

    /// Writes a list by index, so elements are borrowed from their array rather than copied into a closure.
    @inline(__always)
    func list(count: Int, _ plan: FieldPlan, _ item: (Int) throws -> Bool) rethrows -> Bool {
        var itemType = plan.type.nullable
        if case .list(let inner) = itemType { itemType = inner }
        let itemsNonNull = itemType.isNonNull
        writer.beginArray()
        for index in 0..<count {
            // Each item may be large (a contact's image, its vCard): the response's size is checked item by item.
            if let refusal = responseRefusal ?? writingStopped {
                record(refusal, at: plan)
                return false
            }
            writer.comma()
            path.append(.index(index))
            let mark = writer.mark
            if try !item(index) {
                writer.rollBack(to: mark)
                if itemsNonNull {
                    path.removeLast()
                    return false
                }
                writer.null()
            }
            path.removeLast()
        }
        writer.endArray()
        return true
    }

    /// A plan a writer has no field for: `__typename` is written (`name`); the plan standing for a selection set
    /// that could not be collected for this object (``FieldPlan/failing(_:objectType:id:)``) fails the object, its
    /// error recorded at the object's path, as graphql-js fails an object whose fields it cannot collect: `false`
    /// then, which the writer returns (the object is null, or the failure propagates).
    @inline(__always)
    func otherField(_ plan: FieldPlan, _ name: String) -> Bool {
        if let failure = plan.collectionFailure {
            // A save's selection that cannot be collected (a null `@skip` condition) fails after the save
            // committed: said so, where it read as a save that wrote nothing (an outside tester's find).
            var error = failure.responseError(prepared.source, path: path, locations: positions(plan))
            amendForCommit(&error, cause: nil)
            errors.append(error)
            return false
        }
        if plan.isTypename {
            writer.rawKey(plan.quotedKey)
            writer.string(name)
        }
        return true
    }

    /// Where a field is in the client's text (its first node, as graphql-js reports; for a selection set that could
    /// not be collected, its cause), found once per plan: a field failing for every item of a list would otherwise
    /// scan the text once per item.
    private func positions(_ plan: FieldPlan) -> [SourcePosition] {
        if let known = errorPositions[plan.id] { return known }
        let found =
            if let failure = plan.collectionFailure {
                failure.locations(in: prepared.source)
            } else {
                plan.nodes.first.map { prepared.source.positions(of: $0) } ?? []
            }
        errorPositions[plan.id] = found
        return found
    }

    func record(_ error: any Error, at plan: FieldPlan) {
        let fieldError: FieldError
        switch error {
        case let known as FieldError:
            fieldError = known
        case let storeError as StoreError:
            fieldError = FieldError(storeError)
        case is CancellationError:
            fieldError = .cancelled
        default:
            service.reportUnexpected(error)
            fieldError = FieldError(message: "Internal server error.", code: .internalServerError)
        }
        var response = ResponseError(
            message: fieldError.message, code: fieldError.code, locations: positions(plan), path: path,
            extensions: fieldError.extensions)
        amendForCommit(&response, cause: (error as? StoreError)?.cause)
        errors.append(response)
    }

    /// An error raised after the operation's mutation committed says so, whatever raised it.
    func amendForCommit(_ error: inout ResponseError, cause: String?) {
        if committedMutation {
            // Any mutation: its write stands although its field is null (a client that retried a createAddressBook
            // whose selection failed made a second book, an outside fuzzer's find). Nor may the error say otherwise:
            // a store error's "nothing was written. Retry shortly." and its retryAfterSeconds made clients that
            // follow them write a committed save twice (an outside tester's find, under PostgreSQL restarts).
            error.extensions["committed"] = .bool(true)
            error.extensions["retryAfterSeconds"] = nil
            var detail = cause ?? error.message
            if detail.hasSuffix(".") { detail.removeLast() }
            error.message = "The mutation was written (do not send it again); what failed after it: \(detail)."
        }
        if let committedSave {
            // What failed after the save committed (reading back what it saved, a response limit) says so: the
            // client must not take the null for a save that wrote nothing, and retry it.
            error.extensions["saveCommitted"] = .bool(true)
            error.extensions["revision"] = committedSave.revision.map { .string(String($0)) } ?? .null
            error.extensions["historyToken"] = .string(committedSave.historyToken)
        }
    }
}

extension FieldError {
    /// A store error with its stable code and details in `extensions`.
    init(_ error: StoreError) {
        var extensions: [String: JSONValue] = [:]
        if !error.keyPaths.isEmpty { extensions["keyPaths"] = .array(error.keyPaths.map(JSONValue.string)) }
        if !error.affectedRecordIdentifiers.isEmpty {
            extensions["affectedRecordIdentifiers"] = .array(error.affectedRecordIdentifiers.map(JSONValue.string))
        }
        if let index = error.operationIndex { extensions["operationIndex"] = .int(index) }
        // UNAVAILABLE: the client may retry the same request after this many seconds (nothing was written).
        if let retry = error.retryAfter { extensions["retryAfterSeconds"] = .int(Int(retry.components.seconds)) }
        // A store's PREDICATE_INVALID from a read is always about the client's arguments (a malformed cursor, a
        // page size, a filter too long): the same mistake as any other bad argument, so the same code.
        let code = error.code == .predicateInvalid ? ErrorCode.badUserInput : ErrorCode(error.code)
        self.init(message: error.message, code: code, extensions: extensions)
    }
}
