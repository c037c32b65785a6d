import GraphQL

/// Refuses `__schema` and `__type` when introspection is off (`__typename` stays).
struct IntrospectionRule {
    let traversal: SelectionTraversal

    func validate(_ document: Document) -> [GraphQLError] {
        var errors: [GraphQLError] = []
        var seen = Set<String>()
        func visit(_ selectionSet: SelectionSet, _ type: String) {
            guard seen.insert("\(ObjectIdentifier(selectionSet))|\(type)").inserted else { return }
            for field in traversal.collectFields(selectionSet, parentType: type) {
                if field.node.name.value == "__schema" || field.node.name.value == "__type" {
                    errors.append(
                        .validation(
                            "GraphQL introspection is not allowed here, but the query contained \(field.node.name.value).",
                            [field.node], code: .introspectionDisabled))
                } else if let inner = field.node.selectionSet, let info = field.info {
                    visit(inner, info.type.namedType)
                }
            }
        }
        for (selectionSet, type) in traversal.roots(document) { visit(selectionSet, type) }
        return errors
    }
}
