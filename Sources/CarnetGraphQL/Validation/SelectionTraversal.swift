import GraphQL

/// Walks selection sets with their parent types, through fragments, for the checks the library leaves out.
struct SelectionTraversal {
    let schema: SchemaIndex
    let fragments: [String: FragmentDefinition]

    init(schema: SchemaIndex, document: Document) {
        self.schema = schema
        var fragments: [String: FragmentDefinition] = [:]
        for case let fragment as FragmentDefinition in document.definitions {
            fragments[fragment.name.value] = fragment
        }
        self.fragments = fragments
    }

    /// A field as it appears in a selection set, with the type that selects it.
    struct FieldOccurrence {
        let parentType: String
        let node: Field
        let info: FieldInfo?
        var responseName: String { node.alias?.value ?? node.name.value }
    }

    /// Every field a selection set selects (fragments expanded, no directives evaluated), in order. As in the
    /// spec's CollectFields, a fragment is expanded once per collection, which keeps this linear in the document.
    func collectFields(_ selectionSet: SelectionSet, parentType: String, visited: inout Set<String>)
        -> [FieldOccurrence]
    {
        var result: [FieldOccurrence] = []
        for selection in selectionSet.selections {
            switch selection {
            case let field as Field:
                result.append(FieldOccurrence(
                    parentType: parentType, node: field, info: schema.types[parentType]?.field(field.name.value)))
            case let inline as InlineFragment:
                let type = inline.typeCondition?.name.value ?? parentType
                result += collectFields(inline.selectionSet, parentType: type, visited: &visited)
            case let spread as FragmentSpread:
                guard visited.insert(spread.name.value).inserted, let fragment = fragments[spread.name.value] else { continue }
                result += collectFields(fragment.selectionSet, parentType: fragment.typeCondition.name.value, visited: &visited)
            default:
                continue
            }
        }
        return result
    }

    func collectFields(_ selectionSet: SelectionSet, parentType: String) -> [FieldOccurrence] {
        var visited = Set<String>()
        return collectFields(selectionSet, parentType: parentType, visited: &visited)
    }

    /// Each operation and fragment with the selection set it starts from and that set's type.
    func roots(_ document: Document) -> [(SelectionSet, String)] {
        document.definitions.compactMap { definition in
            switch definition {
            case let operation as OperationDefinition:
                schema.rootType(operation.operation).map { (operation.selectionSet, $0) }
            case let fragment as FragmentDefinition:
                (fragment.selectionSet, fragment.typeCondition.name.value)
            default:
                nil
            }
        }
    }
}

extension GraphQLError {
    /// A validation error at the given nodes, with the code clients match on.
    static func validation(_ message: String, _ nodes: [any Node], code: ErrorCode = .validationFailed) -> GraphQLError {
        GraphQLError(message: message, nodes: nodes, extensions: ["code": .string(code.rawValue)])
    }
}
