import GraphQL

/// Measures each operation's depth, aliases and root fields, expanding fragments (each fragment measured once),
/// and reports the ones over the limits.
struct DocumentLimitsRule {
    let traversal: SelectionTraversal
    let limits: GraphQLLimits

    private struct Measure {
        var depth = 0
        var aliases = 0
    }

    func validate(_ document: Document) -> [GraphQLError] {
        var errors: [GraphQLError] = []
        var memo: [String: Measure] = [:]
        for case let operation as OperationDefinition in document.definitions {
            var visiting = Set<String>()
            let measure = measure(operation.selectionSet, memo: &memo, visiting: &visiting)
            let name = operation.name.map { "Operation \"\($0.value)\"" } ?? "The operation"
            if measure.depth > limits.maxDepth {
                errors.append(
                    .validation(
                        "\(name) is \(measure.depth) fields deep; the limit is \(limits.maxDepth).", [operation],
                        code: .tooDeep))
            }
            if measure.aliases > limits.maxAliases {
                errors.append(
                    .validation(
                        "\(name) has \(measure.aliases) aliases; the limit is \(limits.maxAliases).", [operation],
                        code: .tooManyAliases))
            }
            if let root = traversal.schema.rootType(operation.operation) {
                // By response key: the same field selected again (`{ a a }`, through fragments) merges into one,
                // which runs once; each selection counted, 21 of one field were refused (an outside tester's note).
                let count = Set(traversal.collectFields(operation.selectionSet, parentType: root).map(\.responseName))
                    .count
                if count > limits.maxRootFields {
                    errors.append(
                        .validation(
                            "\(name) selects \(count) root fields; the limit is \(limits.maxRootFields).", [operation],
                            code: .tooManyRootFields))
                }
            }
        }
        return errors
    }

    /// Addition that saturates: fragments can multiply counts past `Int.max`.
    private static func add(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : sum
    }

    /// `visiting` holds the fragments being measured (a cycle is another rule's error); it is one set updated in
    /// place, since copying it per fragment made a chain of fragments quadratic.
    private func measure(_ selectionSet: SelectionSet, memo: inout [String: Measure], visiting: inout Set<String>)
        -> Measure
    {
        var result = Measure()
        for selection in selectionSet.selections {
            switch selection {
            case let field as Field:
                if field.alias != nil && field.name.value != "__typename" {
                    result.aliases = Self.add(result.aliases, 1)
                }
                let inner = field.selectionSet.map { measure($0, memo: &memo, visiting: &visiting) } ?? Measure()
                result.depth = max(result.depth, 1 + inner.depth)
                result.aliases = Self.add(result.aliases, inner.aliases)
            case let inline as InlineFragment:
                let inner = measure(inline.selectionSet, memo: &memo, visiting: &visiting)
                result.depth = max(result.depth, inner.depth)
                result.aliases = Self.add(result.aliases, inner.aliases)
            case let spread as FragmentSpread:
                let name = spread.name.value
                guard !visiting.contains(name), let fragment = traversal.fragments[name] else { continue }
                let inner: Measure
                if let known = memo[name] {
                    inner = known
                } else {
                    visiting.insert(name)
                    inner = measure(fragment.selectionSet, memo: &memo, visiting: &visiting)
                    visiting.remove(name)
                    memo[name] = inner
                }
                result.depth = max(result.depth, inner.depth)
                result.aliases = Self.add(result.aliases, inner.aliases)
            default:
                continue
            }
        }
        return result
    }
}
