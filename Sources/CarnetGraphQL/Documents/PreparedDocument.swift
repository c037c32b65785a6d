import GraphQL

/// A parsed and validated document, ready to execute any of its operations. Immutable, shared across requests.
final class PreparedDocument: Sendable {
    let document: Document
    let operations: [OperationDefinition]
    let fragments: [String: FragmentDefinition]

    init(document: Document) {
        self.document = document
        var operations: [OperationDefinition] = []
        var fragments: [String: FragmentDefinition] = [:]
        for definition in document.definitions {
            if let operation = definition as? OperationDefinition { operations.append(operation) }
            if let fragment = definition as? FragmentDefinition { fragments[fragment.name.value] = fragment }
        }
        self.operations = operations
        self.fragments = fragments
    }

    /// The operation to run: the one named, or the only one.
    func operation(named name: String?) throws(GraphQLRequestError) -> OperationDefinition {
        if let name {
            guard let operation = operations.first(where: { $0.name?.value == name }) else {
                throw GraphQLRequestError(.operationNotFound, [ResponseError(
                    message: "Unknown operation named \"\(name)\".", code: .operationNotFound)])
            }
            return operation
        }
        guard operations.count == 1 else {
            throw GraphQLRequestError(.operationNotFound, [ResponseError(
                message: "Must provide operation name if query contains multiple operations.", code: .operationNotFound)])
        }
        return operations[0]
    }
}

/// The outcome of preparing a query text, cached either way.
enum Preparation: Sendable {
    case ready(PreparedDocument)
    case failed(GraphQLRequestError)
}

extension ResponseError {
    /// A library error (parse or validation) as a response error.
    init(_ error: GraphQLError, defaultCode: ErrorCode) {
        let code = error.extensions["code"]?.string.map(ErrorCode.init(rawValue:)) ?? defaultCode
        self.init(
            message: error.message, code: code,
            locations: error.locations.map { SourcePosition(line: $0.line, column: $0.column) })
    }
}
