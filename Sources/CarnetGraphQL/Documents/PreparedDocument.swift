import GraphQL
import Synchronization

/// A parsed and validated document, ready to execute any of its operations. Immutable, shared across requests.
final class PreparedDocument: Sendable {
    let document: Document
    /// The client's text, for error positions.
    let source: DocumentSource
    let operations: [OperationDefinition]
    let fragments: [String: FragmentDefinition]
    /// The variables `@skip` and `@include` read: the only ones that change the shape of a plan.
    let directiveVariables: [String]
    /// Plans by operation and directive variable values. Arguments that use variables are bound per request,
    /// so one plan serves every request for the same shape.
    private let planCache = Mutex<[String: (fields: [FieldPlan], failure: CollectionFailure?)]>([:])
    /// Each operation's variables, in definition order: turning the document's type nodes into ``TypeRef``s
    /// takes dynamic casts, so it is done once here rather than on every request.
    private let variableSlots: [[VariableSlot]]

    init(document: Document, source: DocumentSource) {
        self.document = document
        self.source = source
        var operations: [OperationDefinition] = []
        var fragments: [String: FragmentDefinition] = [:]
        for definition in document.definitions {
            if let operation = definition as? OperationDefinition { operations.append(operation) }
            if let fragment = definition as? FragmentDefinition { fragments[fragment.name.value] = fragment }
        }
        self.operations = operations
        self.fragments = fragments
        self.variableSlots = VariableSlot.slots(of: operations, source)
        var names = Set<String>()
        func visit(_ selectionSet: SelectionSet) {
            for selection in selectionSet.selections {
                let directives: [Directive]
                switch selection {
                case let field as Field:
                    directives = field.directives
                    if let inner = field.selectionSet { visit(inner) }
                case let inline as InlineFragment:
                    directives = inline.directives
                    visit(inline.selectionSet)
                case let spread as FragmentSpread:
                    directives = spread.directives
                default:
                    directives = []
                }
                for directive in directives {
                    for argument in directive.arguments {
                        if let variable = argument.value as? Variable { names.insert(variable.name.value) }
                    }
                }
            }
        }
        for operation in operations { visit(operation.selectionSet) }
        for fragment in fragments.values { visit(fragment.selectionSet) }
        self.directiveVariables = names.sorted()
    }

    /// The root field plans of an operation for these variables, from the cache when the shape was planned before,
    /// or the failure collecting the root selection set met (a null `@skip`/`@include` condition).
    func plans(for operation: OperationDefinition, variables: [String: JSONValue], index: SchemaIndex, rootType: String)
        -> (fields: [FieldPlan], failure: CollectionFailure?)
    {
        var key = "\(operations.firstIndex { $0 === operation } ?? 0)"
        var directiveValues: [String: JSONValue] = [:]
        for name in directiveVariables {
            let value = variables[name] ?? .null
            directiveValues[name] = value
            key += value == .bool(true) ? "1" : value == .bool(false) ? "0" : "n"
        }
        if let cached = planCache.withLock({ $0[key] }) { return cached }
        var planner = Planner(schema: index, fragments: fragments, variables: directiveValues)
        let plans = planner.plan([operation.selectionSet], objectType: rootType)
        planCache.withLock { cache in
            if cache.count < 64 { cache[key] = plans }
        }
        return plans
    }

    /// `operation`'s variables, in definition order.
    func variableSlots(of operation: OperationDefinition) -> [VariableSlot] {
        operations.firstIndex { $0 === operation }.map { variableSlots[$0] }
            ?? VariableSlot.slots(of: [operation], source)[0]
    }

    /// The operation to run: the one named, or the only one.
    func operation(named name: String?) throws(GraphQLRequestError) -> OperationDefinition {
        if let name {
            guard let operation = operations.first(where: { $0.name?.value == name }) else {
                throw GraphQLRequestError(
                    .operationNotFound,
                    [
                        ResponseError(
                            message: "Unknown operation named \"\(name)\".", code: .operationNotFound)
                    ])
            }
            return operation
        }
        guard operations.count == 1 else {
            throw GraphQLRequestError(
                .operationNotFound,
                [
                    ResponseError(
                        message: "Must provide operation name if query contains multiple operations.",
                        code: .operationNotFound)
                ])
        }
        return operations[0]
    }
}

/// The outcome of preparing a query text, cached either way.
enum Preparation: Sendable {
    case ready(PreparedDocument)
    case failed(GraphQLRequestError)
}
