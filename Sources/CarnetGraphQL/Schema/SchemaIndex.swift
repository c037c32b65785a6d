import GraphQL
import OrderedCollections

/// A read-only index of the schema, built once from the library's types: what the planner, validator and
/// executor look up on every request, without calling the library's field thunks.
final class SchemaIndex: Sendable {
    let types: [String: NamedTypeInfo]
    let queryType: String
    let mutationType: String?
    let subscriptionType: String?

    static let shared = SchemaIndex(CarnetSchema.schema)

    init(_ schema: GraphQLSchema) {
        var types: [String: NamedTypeInfo] = [:]
        for (name, type) in schema.typeMap {
            switch type {
            case let object as GraphQLObjectType:
                types[name] = .object(
                    fields: Self.fields((try? object.fields()) ?? [:]),
                    interfaces: ((try? object.interfaces()) ?? []).map(\.name))
            case let interface as GraphQLInterfaceType:
                types[name] = .interface(
                    fields: Self.fields((try? interface.fields()) ?? [:]),
                    possibleTypes: schema.getPossibleTypes(abstractType: interface).map(\.name))
            case let union as GraphQLUnionType:
                types[name] = .union(possibleTypes: schema.getPossibleTypes(abstractType: union).map(\.name))
            case let enumeration as GraphQLEnumType:
                types[name] = .enumeration(values: Set(enumeration.values.map(\.name)))
            case let input as GraphQLInputObjectType:
                types[name] = .inputObject(
                    fields: ((try? input.fields()) ?? [:]).map {
                        InputValueInfo(
                            name: $0.key, type: Self.ref($0.value.type),
                            defaultValue: $0.value.defaultValue.map(JSONValue.init))
                    }, isOneOf: input.isOneOf)
            default:
                types[name] = .scalar
            }
        }
        self.types = types
        self.queryType = schema.queryType?.name ?? "Query"
        self.mutationType = schema.mutationType?.name
        self.subscriptionType = schema.subscriptionType?.name
    }

    func rootType(_ operation: OperationType) -> String? {
        switch operation {
        case .query: queryType
        case .mutation: mutationType
        case .subscription: subscriptionType
        }
    }

    /// Whether a value of concrete type `object` satisfies the type condition `condition`.
    func does(_ object: String, satisfy condition: String) -> Bool {
        object == condition || (types[condition]?.possibleTypes(named: condition).contains(object) ?? false)
    }

    private static func fields(_ map: GraphQLFieldMap) -> [String: FieldInfo] {
        var result: [String: FieldInfo] = [:]
        for (name, field) in map {
            result[name] = FieldInfo(
                name: name, type: ref(field.type),
                arguments: field.args.map {
                    InputValueInfo(
                        name: $0.key, type: ref($0.value.type), defaultValue: $0.value.defaultValue.map(JSONValue.init))
                })
        }
        return result
    }

    static func ref(_ type: any GraphQLType) -> TypeRef {
        switch type {
        case let nonNull as GraphQLNonNull: .nonNull(ref(nonNull.ofType))
        case let list as GraphQLList: .list(ref(list.ofType))
        case let named as any GraphQLNamedType: .named(named.name)
        default: .named("\(type)")
        }
    }
}
