import GraphQL

/// Builds ``FieldPlan``s from selection sets: CollectFields with `@skip`/`@include` evaluated, fragments
/// expanded where their type condition holds, same-key fields merged, arguments coerced.
struct Planner {
    let schema: SchemaIndex
    let fragments: [String: FragmentDefinition]
    let variables: [String: JSONValue]
    let coercion: InputCoercion
    private(set) var nextID = 0

    init(schema: SchemaIndex, fragments: [String: FragmentDefinition], variables: [String: JSONValue]) {
        self.schema = schema
        self.fragments = fragments
        self.variables = variables
        self.coercion = InputCoercion(schema: schema)
    }

    /// The fields a concrete object type executes for these selection sets.
    mutating func plan(_ selectionSets: [SelectionSet], objectType: String) -> [FieldPlan] {
        var order: [String] = []
        var grouped: [String: [Field]] = [:]
        var visited = Set<String>()
        for selectionSet in selectionSets {
            collect(selectionSet, objectType, &order, &grouped, &visited)
        }
        let typeInfo = schema.types[objectType]
        return order.compactMap { key in
            // `collect` fills both together, so every key has at least one field.
            guard let fields = grouped[key], let first = fields.first else { return nil }
            let name = first.name.value
            nextID += 1
            let id = nextID
            guard let info = typeInfo?.field(name) else {
                let type: TypeRef = name == "__typename" ? .nonNull(.named("String")) : .named("__Schema")
                return FieldPlan(
                    id: id, responseKey: key, name: name, code: -1, arguments: .resolved(.none, nil),
                    nodes: fields, type: type, selection: nil, objectType: objectType)
            }
            let arguments: ArgumentSource
            let binding = ArgumentBinding(first, info)
            if binding.usesVariables {
                arguments = .bound(binding)
            } else {
                do throws(FieldError) {
                    arguments = .resolved(ArgumentValues(values: try coercion.arguments(binding, variables: [:])), nil)
                } catch {
                    arguments = .resolved(.none, error)
                }
            }
            let subSets = fields.compactMap(\.selectionSet)
            let selection = subSets.isEmpty ? nil : selectionPlan(subSets, returnType: info.type.namedType)
            return FieldPlan(
                id: id, responseKey: key, name: name, code: FieldCodes.code(objectType, name),
                arguments: arguments, nodes: fields, type: info.type, selection: selection, objectType: objectType)
        }
    }

    /// Plans for every concrete type a value of `returnType` can have.
    mutating func selectionPlan(_ selectionSets: [SelectionSet], returnType: String) -> SelectionPlan {
        let possible = schema.types[returnType]?.possibleTypes(named: returnType) ?? [returnType]
        var byType: [String: [FieldPlan]] = [:]
        for type in possible { byType[type] = plan(selectionSets, objectType: type) }
        return SelectionPlan(byType: byType)
    }

    private func collect(
        _ selectionSet: SelectionSet, _ objectType: String, _ order: inout [String], _ grouped: inout [String: [Field]],
        _ visited: inout Set<String>
    ) {
        for selection in selectionSet.selections {
            switch selection {
            case let field as Field:
                guard included(field.directives) else { continue }
                let key = field.alias?.value ?? field.name.value
                if grouped[key] == nil { order.append(key) }
                grouped[key, default: []].append(field)
            case let inline as InlineFragment:
                guard included(inline.directives) else { continue }
                if let condition = inline.typeCondition?.name.value, !schema.does(objectType, satisfy: condition) {
                    continue
                }
                collect(inline.selectionSet, objectType, &order, &grouped, &visited)
            case let spread as FragmentSpread:
                guard included(spread.directives), !visited.contains(spread.name.value),
                    let fragment = fragments[spread.name.value]
                else { continue }
                visited.insert(spread.name.value)
                guard schema.does(objectType, satisfy: fragment.typeCondition.name.value) else { continue }
                collect(fragment.selectionSet, objectType, &order, &grouped, &visited)
            default:
                continue
            }
        }
    }

    static func usesVariables(_ value: any Value) -> Bool {
        switch value {
        case is Variable: true
        case let list as ListValue: list.values.contains(where: usesVariables)
        case let object as ObjectValue: object.fields.contains { usesVariables($0.value) }
        default: false
        }
    }

    /// `@skip(if:)` and `@include(if:)`.
    private func included(_ directives: [Directive]) -> Bool {
        for directive in directives {
            let name = directive.name.value
            guard name == "skip" || name == "include",
                let argument = directive.arguments.first(where: { $0.name.value == "if" })
            else { continue }
            let condition = coercion.value(of: argument.value, variables: variables) == .bool(true)
            if name == "skip" && condition { return false }
            if name == "include" && !condition { return false }
        }
        return true
    }
}
