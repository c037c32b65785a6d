import GraphQL
import OrderedCollections

/// Corrects GraphQLSwift's introspection result where it departs from the spec and graphql-js: lists in
/// definition order, input fields' default values, `isOneOf` null for types that are not input objects, and no
/// stray backslashes in the built-in types' descriptions.
///
/// The result is walked alongside the selections that produced it, knowing at each object what schema element
/// it describes; elements are identified by their position in the library's (name-sorted) lists, so nothing
/// needs to be selected for this to work. Carnet's schema deprecates nothing, so `includeDeprecated` never
/// changes those lists.
struct IntrospectionFixup {
    let schema: GraphQLSchema
    let fragments: [String: FragmentDefinition]
    let order: SchemaOrder

    /// What an object in the result describes.
    enum Element {
        case schema
        case type(TypeRef)
        case field(owner: String, name: String, type: TypeRef)
        case inputValue(owner: String?, name: String, type: TypeRef)
        case enumValue
        case directive(String)
    }

    func fix(_ value: Map, _ element: Element, _ selections: [SelectionSet]) -> Map {
        switch value {
        case .array(let items): return .array(items.map { fix($0, element, selections) })
        case .dictionary(let object):
            let fields = collect(selections)
            var result = OrderedDictionary<String, Map>()
            for (key, item) in object {
                guard let nodes = fields[key], let name = nodes.first?.name.value else {
                    result[key] = item
                    continue
                }
                result[key] = fix(field: name, of: element, item, nodes.compactMap(\.selectionSet))
            }
            return .dictionary(result)
        default: return value
        }
    }

    private func fix(field: String, of element: Element, _ value: Map, _ selections: [SelectionSet]) -> Map {
        switch (element, field) {
        case (_, "description"):
            guard case .string(let text) = value else { return value }
            return .string(text.replacingOccurrences(of: "\\`", with: "`"))
        case (.schema, "types"):
            let names = schema.typeMap.keys.sorted()
            return list(value, names, order.types, selections) { .type(.named($0)) }
        case (.schema, "queryType"), (.schema, "mutationType"), (.schema, "subscriptionType"):
            let root =
                field == "queryType"
                ? schema.queryType : field == "mutationType" ? schema.mutationType : schema.subscriptionType
            return root.map { fix(value, .type(.named($0.name)), selections) } ?? value
        case (.schema, "directives"):
            let names = schema.directives.map(\.name)
            return list(value, names, nil, selections) { .directive($0) }
        case (.type(let type), _):
            return fix(typeField: field, type, value, selections)
        case (.field(let owner, let name, _), "args"):
            let arguments = fieldDefinition(owner, name)?.args ?? [:]
            return list(value, Array(arguments.keys), order.arguments["\(owner).\(name)"], selections) { argument in
                .inputValue(
                    owner: nil, name: argument, type: arguments[argument].map { SchemaIndex.ref($0.type) } ?? .named("")
                )
            }
        case (.field(_, _, let type), "type"), (.inputValue(_, _, let type), "type"):
            return fix(value, .type(type), selections)
        case (.inputValue(let owner?, let name, _), "defaultValue"):
            guard case .null = value, let literal = order.defaults["\(owner).\(name)"] else { return value }
            return .string(literal)
        case (.directive(let directive), "args"):
            let arguments = schema.directives.first { $0.name == directive }?.args ?? []
            return list(value, arguments.map(\.name), nil, selections) { argument in
                .inputValue(
                    owner: nil, name: argument,
                    type: arguments.first { $0.name == argument }.map { SchemaIndex.ref($0.type) } ?? .named(""))
            }
        default:
            return value
        }
    }

    private func fix(typeField field: String, _ type: TypeRef, _ value: Map, _ selections: [SelectionSet]) -> Map {
        guard case .named(let name) = type else {
            switch (field, type) {
            case ("ofType", .list(let inner)), ("ofType", .nonNull(let inner)):
                return fix(value, .type(inner), selections)
            case ("isOneOf", _): return .null
            default: return value
            }
        }
        let named = schema.typeMap[name]
        switch field {
        case "isOneOf":
            return named is GraphQLInputObjectType ? value : .null
        case "fields":
            let definitions: GraphQLFieldMap? =
                switch named {
                case let object as GraphQLObjectType: try? object.fields()
                case let interface as GraphQLInterfaceType: try? interface.fields()
                default: nil
                }
            guard let definitions else { return value }
            return list(value, definitions.keys.sorted(), order.members[name] ?? Array(definitions.keys), selections) {
                .field(owner: name, name: $0, type: definitions[$0].map { SchemaIndex.ref($0.type) } ?? .named(""))
            }
        case "inputFields":
            guard let input = named as? GraphQLInputObjectType, let definitions = try? input.fields() else {
                return value
            }
            return list(value, definitions.keys.sorted(), order.members[name] ?? Array(definitions.keys), selections) {
                .inputValue(owner: name, name: $0, type: definitions[$0].map { SchemaIndex.ref($0.type) } ?? .named(""))
            }
        case "enumValues":
            guard let enumeration = named as? GraphQLEnumType else { return value }
            return list(value, enumeration.values.map(\.name), order.members[name], selections) { _ in .enumValue }
        case "interfaces":
            let names: [String] =
                switch named {
                case let object as GraphQLObjectType: ((try? object.interfaces()) ?? []).map(\.name)
                case let interface as GraphQLInterfaceType: ((try? interface.interfaces()) ?? []).map(\.name)
                default: []
                }
            return list(value, names, nil, selections) { .type(.named($0)) }
        case "possibleTypes":
            guard let abstract = named as? (any GraphQLAbstractType) else { return value }
            return list(value, schema.getPossibleTypes(abstractType: abstract).map(\.name), nil, selections) {
                .type(.named($0))
            }
        default:
            return value
        }
    }

    /// A list the library produced in the order of `names`: each item fixed as the element it describes, then
    /// put in `order`.
    private func list(
        _ value: Map, _ names: [String], _ order: [String]?, _ selections: [SelectionSet],
        _ element: (String) -> Element
    ) -> Map {
        guard case .array(let items) = value, items.count == names.count else { return value }
        let fixed = zip(items, names).map { fix($0, element($1), selections) }
        return .array(SchemaOrder.reorder(fixed, names: names, to: order))
    }

    private func fieldDefinition(_ owner: String, _ name: String) -> GraphQLField? {
        switch schema.typeMap[owner] {
        case let object as GraphQLObjectType: (try? object.fields())?[name]
        case let interface as GraphQLInterfaceType: (try? interface.fields())?[name]
        default: nil
        }
    }

    /// The fields the selection sets select, by response key (fragments expanded; the library already applied
    /// `@skip` and `@include`, so a skipped field is simply absent from the result).
    private func collect(_ selections: [SelectionSet]) -> [String: [Field]] {
        var result: [String: [Field]] = [:]
        var visited = Set<String>()
        var pending = selections
        while let set = pending.popLast() {
            for selection in set.selections {
                switch selection {
                case let field as Field: result[field.alias?.value ?? field.name.value, default: []].append(field)
                case let inline as InlineFragment: pending.append(inline.selectionSet)
                case let spread as FragmentSpread:
                    if visited.insert(spread.name.value).inserted, let fragment = fragments[spread.name.value] {
                        pending.append(fragment.selectionSet)
                    }
                default: continue
                }
            }
        }
        return result
    }
}
