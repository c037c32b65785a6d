import GraphQL

/// The spec's LoneAnonymousOperation, UniqueOperationNames and UniqueFragmentNames, checked before the library's
/// rules, and instead of them when they fail. GraphQLSwift keeps operations and fragments as dictionary keys whose
/// `==` compares structure while their hash is their identity: two identical definitions (`{ a } query { a }`)
/// broke the dictionary's invariant and trapped the whole process. Identical definitions have one name (or none),
/// so a document with none of these errors has no two equal definitions to trap on.
struct UniqueDefinitionsRule {
    func validate(_ document: Document) -> [GraphQLError] {
        var errors: [GraphQLError] = []
        // Each name's first definition, by its name node: errors point at the names, as graphql-js's do.
        var operations: [String: Name] = [:]
        var fragments: [String: Name] = [:]
        let operationCount = document.definitions.count { $0 is OperationDefinition }
        for definition in document.definitions {
            switch definition {
            case let operation as OperationDefinition:
                guard let node = operation.name else {
                    if operationCount > 1 {
                        errors.append(
                            .validation("This anonymous operation must be the only defined operation.", [operation]))
                    }
                    continue
                }
                if let first = operations[node.value] {
                    errors.append(
                        .validation("There can be only one operation named \"\(node.value)\".", [first, node]))
                } else {
                    operations[node.value] = node
                }
            case let fragment as FragmentDefinition:
                let name = fragment.name.value
                if let first = fragments[name] {
                    errors.append(
                        .validation("There can be only one fragment named \"\(name)\".", [first, fragment.name]))
                } else {
                    fragments[name] = fragment.name
                }
            default:
                continue
            }
        }
        return errors
    }
}
