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
        /// Where the field is in the document: its selection set (a class, so an identity) and its index there.
        /// Positions would do only in a document parsed with locations.
        let selectionSet: ObjectIdentifier
        let index: Int
        var responseName: String { node.alias?.value ?? node.name.value }
        /// ``selectionSet`` and ``index`` as text, for the keys of memo tables.
        var identity: String { "\(UInt(bitPattern: selectionSet)).\(index)" }
    }

    /// Every field a selection set selects (fragments expanded, no directives evaluated), in order. As in the
    /// spec's CollectFields, a fragment is expanded once per collection, which keeps this linear in the document.
    func collectFields(_ selectionSet: SelectionSet, parentType: String) -> [FieldOccurrence] {
        var visited = Set<String>()
        var result: [FieldOccurrence] = []
        collectFields(selectionSet, parentType: parentType, visited: &visited, into: &result)
        return result
    }

    // Appends to one array: returning and concatenating arrays level by level copied every field once per
    // enclosing fragment, quadratic in a chain of fragments.
    private func collectFields(
        _ selectionSet: SelectionSet, parentType: String, visited: inout Set<String>,
        into result: inout [FieldOccurrence]
    ) {
        for (index, selection) in selectionSet.selections.enumerated() {
            switch selection {
            case let field as Field:
                result.append(
                    FieldOccurrence(
                        parentType: parentType, node: field, info: info(field.name.value, on: parentType),
                        selectionSet: ObjectIdentifier(selectionSet), index: index))
            case let inline as InlineFragment:
                let type = inline.typeCondition?.name.value ?? parentType
                collectFields(inline.selectionSet, parentType: type, visited: &visited, into: &result)
            case let spread as FragmentSpread:
                guard visited.insert(spread.name.value).inserted, let fragment = fragments[spread.name.value] else {
                    continue
                }
                collectFields(
                    fragment.selectionSet, parentType: fragment.typeCondition.name.value, visited: &visited,
                    into: &result)
            default:
                continue
            }
        }
    }

    /// A field of `parentType`, the meta fields included: `__schema` and `__type` on the query type, `__typename`
    /// anywhere (so the checks reach into introspection selections too).
    func info(_ name: String, on parentType: String) -> FieldInfo? {
        if let field = schema.types[parentType]?.field(name) { return field }
        switch name {
        case "__typename": return Self.typename
        case "__schema" where parentType == schema.queryType: return Self.schemaField
        case "__type" where parentType == schema.queryType: return Self.typeField
        default: return nil
        }
    }

    private static let typename = FieldInfo(name: "__typename", type: .nonNull(.named("String")), arguments: [])
    private static let schemaField = FieldInfo(name: "__schema", type: .nonNull(.named("__Schema")), arguments: [])
    private static let typeField = FieldInfo(
        name: "__type", type: .named("__Type"),
        arguments: [InputValueInfo(name: "name", type: .nonNull(.named("String")), defaultValue: nil)])

    /// Each operation with its selection set and root type. Fragments are checked where operations spread them:
    /// walking each fragment definition on its own as well expanded a chain of fragments once per link, and a
    /// fragment no operation uses is already an error (NoUnusedFragments).
    func roots(_ document: Document) -> [(SelectionSet, String)] {
        document.definitions.compactMap { definition in
            guard let operation = definition as? OperationDefinition else { return nil }
            return schema.rootType(operation.operation).map { (operation.selectionSet, $0) }
        }
    }
}

extension GraphQLError {
    /// A validation error at the given nodes, with the code clients match on.
    static func validation(_ message: String, _ nodes: [any Node], code: ErrorCode = .validationFailed) -> GraphQLError
    {
        GraphQLError(message: message, nodes: nodes, extensions: ["code": .string(code.rawValue)])
    }
}
