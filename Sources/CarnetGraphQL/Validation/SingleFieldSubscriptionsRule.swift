import GraphQL

/// The spec's "Single root field" rule for subscriptions, which GraphQLSwift leaves out: a subscription selects
/// exactly one root field, and not an introspection field.
struct SingleFieldSubscriptionsRule {
    let traversal: SelectionTraversal

    func validate(_ document: Document) -> [GraphQLError] {
        var errors: [GraphQLError] = []
        for case let operation as OperationDefinition in document.definitions where operation.operation == .subscription
        {
            guard let root = traversal.schema.subscriptionType else { continue }
            let fields = traversal.collectFields(operation.selectionSet, parentType: root)
            let names = Set(fields.map(\.responseName))
            let label = operation.name.map { "Subscription \"\($0.value)\"" } ?? "Anonymous Subscription"
            if names.count > 1 {
                errors.append(
                    .validation("\(label) must select only one top level field.", fields.dropFirst().map(\.node)))
            }
            if let introspection = fields.first(where: { $0.node.name.value.hasPrefix("__") }) {
                errors.append(
                    .validation("\(label) must not select an introspection top level field.", [introspection.node]))
            }
        }
        return errors
    }
}
