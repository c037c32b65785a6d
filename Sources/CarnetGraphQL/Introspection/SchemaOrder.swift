import GraphQL

/// What introspection must report as the SDL states it and GraphQLSwift 4.3 does not: the order in which types,
/// fields, input fields, arguments and enum values are defined (the library sorts them by name), and input
/// fields' default values (the library reports null for every one).
struct SchemaOrder: Sendable {
    /// Member names in definition order, by type name (fields, input fields or enum values).
    let members: [String: [String]]
    /// Argument names in definition order, by `Type.field`.
    let arguments: [String: [String]]
    /// Input fields' defaults as GraphQL literals, by `Type.field`.
    let defaults: [String: String]
    /// Types in the order the schema holds them (the printed SDL's order).
    let types: [String]

    static let shared = SchemaOrder(sdl: CarnetSchema.sdl, schema: CarnetSchema.schema)

    init(sdl: String, schema: GraphQLSchema) {
        var members: [String: [String]] = [:]
        var arguments: [String: [String]] = [:]
        var defaults: [String: String] = [:]
        func fields(_ type: String, _ definitions: [FieldDefinition]) {
            members[type] = definitions.map(\.name.value)
            for field in definitions { arguments["\(type).\(field.name.value)"] = field.arguments.map(\.name.value) }
        }
        let definitions = (try? parse(source: Source(body: sdl, name: "schema")).definitions) ?? []
        for definition in definitions {
            switch definition {
            case let object as ObjectTypeDefinition: fields(object.name.value, object.fields)
            case let interface as InterfaceTypeDefinition: fields(interface.name.value, interface.fields)
            case let input as InputObjectTypeDefinition:
                members[input.name.value] = input.fields.map(\.name.value)
                for field in input.fields {
                    if let value = field.defaultValue {
                        defaults["\(input.name.value).\(field.name.value)"] = print(ast: value)
                    }
                }
            case let enumeration as EnumTypeDefinition:
                members[enumeration.name.value] = enumeration.values.map(\.name.value)
            default: continue
            }
        }
        self.members = members
        self.arguments = arguments
        self.defaults = defaults
        self.types = Array(schema.typeMap.keys)
    }

    /// `items` (in the order the library listed them, named by `names`) in definition order; names the SDL does
    /// not list keep the library's order, after the others.
    static func reorder<Item>(_ items: [Item], names: [String], to order: [String]?) -> [Item] {
        guard let order, items.count == names.count else { return items }
        var rank: [String: Int] = [:]
        for (index, name) in order.enumerated() { rank[name] = index }
        return items.indices.sorted { (rank[names[$0]] ?? Int.max, $0) < (rank[names[$1]] ?? Int.max, $1) }.map {
            items[$0]
        }
    }
}
