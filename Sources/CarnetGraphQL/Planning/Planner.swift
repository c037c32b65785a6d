import GraphQL

/// Builds ``FieldPlan``s from selection sets: CollectFields with `@skip`/`@include` evaluated, fragments
/// expanded where their type condition holds, same-key fields merged, arguments coerced.
struct Planner {
    let schema: SchemaIndex
    let fragments: [String: FragmentDefinition]
    let variables: [String: JSONValue]
    let coercion: InputCoercion
    private(set) var nextID = 0
    /// The first `@skip`/`@include` met with a null `if` in the selection sets being collected. `if` is a
    /// `Boolean!` that a nullable variable with a default may fill, so a client can send it an explicit null:
    /// CoerceArgumentValues then fails where the selection set is collected, so every object completed with it
    /// fails, as in graphql-js.
    private var conditionFailure: CollectionFailure?

    init(schema: SchemaIndex, fragments: [String: FragmentDefinition], variables: [String: JSONValue]) {
        self.schema = schema
        self.fragments = fragments
        self.variables = variables
        self.coercion = InputCoercion(schema: schema)
    }

    /// The fields a concrete object type executes for these selection sets, or the failure collecting them met (a
    /// null `@skip`/`@include` condition), which fails each object of that type completed with them (at the root,
    /// the operation's data).
    mutating func plan(_ selectionSets: [SelectionSet], objectType: String) -> (
        fields: [FieldPlan], failure: CollectionFailure?
    ) {
        var order: [String] = []
        var grouped: [String: [Field]] = [:]
        var visited = Set<String>()
        conditionFailure = nil
        for selectionSet in selectionSets {
            collect(selectionSet, objectType, &order, &grouped, &visited)
        }
        if let failure = conditionFailure { return ([], failure) }
        let typeInfo = schema.types[objectType]
        let fields = order.compactMap { key -> FieldPlan? in
            // `collect` fills both together, so every key has at least one field.
            guard let fields = grouped[key], let first = fields.first else { return nil }
            let name = first.name.value
            nextID += 1
            let id = nextID
            guard let info = typeInfo?.field(name) else {
                // The meta fields' own types, so a failed `__schema` nulls what holds it (it is non-null).
                let type: TypeRef =
                    switch name {
                    case "__typename": .nonNull(.named("String"))
                    case "__schema": .nonNull(.named("__Schema"))
                    default: .named("__Type")
                    }
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
        return (fields, nil)
    }

    /// Plans for every concrete type a value of `returnType` can have. A type whose selection set could not be
    /// collected (a null `@skip`/`@include` condition) gets the one plan that fails each of its objects, as
    /// graphql-js fails each object it completes: none for an empty list or a null value.
    mutating func selectionPlan(_ selectionSets: [SelectionSet], returnType: String) -> SelectionPlan {
        let possible = schema.types[returnType]?.possibleTypes(named: returnType) ?? [returnType]
        var byType: [String: [FieldPlan]] = [:]
        for type in possible {
            let (fields, failure) = plan(selectionSets, objectType: type)
            if let failure {
                nextID += 1
                byType[type] = [.failing(failure, objectType: type, id: nextID)]
            } else {
                byType[type] = fields
            }
        }
        return SelectionPlan(byType: byType)
    }

    private mutating func collect(
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
                // graphql-js asks whether the fragment was spread before it reads the spread's directives.
                guard !visited.contains(spread.name.value), included(spread.directives),
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

    /// `@skip(if:)`, then `@include(if:)`, as graphql-js reads them (a skipped selection's `@include` is never
    /// read, nor its null); a null condition is recorded in ``conditionFailure`` (its field fails).
    private mutating func included(_ directives: [Directive]) -> Bool {
        for name in ["skip", "include"] {
            guard let directive = directives.first(where: { $0.name.value == name }),
                let argument = directive.arguments.first(where: { $0.name.value == "if" })
            else { continue }
            guard case .bool(let condition) = coercion.value(of: argument.value, variables: variables) else {
                if conditionFailure == nil {
                    conditionFailure = CollectionFailure(
                        error: Self.nullConditionError, offset: argument.value.loc?.start)
                }
                return false
            }
            if condition == (name == "skip") { return false }
        }
        return true
    }

    /// The error of a null `if`, in graphql-js's words.
    static let nullConditionError = FieldError.badUserInput(
        #"Argument "if" of non-null type "Boolean!" must not be null."#)
}
