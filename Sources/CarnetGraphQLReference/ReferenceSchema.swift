import CarnetGraphQL
import CarnetStore
import GraphQL

/// Carnet's schema executed by GraphQLSwift's own executor with straightforward resolvers over the store: the
/// reference the differential tests and the benchmark compare Carnet's executor with.
///
/// Built from the same SDL; resolvers are attached to the built types, and the two interfaces are rebuilt with a
/// `resolveType` (the SDL gives them none). Records are handed to the library as dictionaries, so its default
/// resolver reads their fields; fields with arguments or relations have resolvers that ask the store, one record
/// at a time.
public enum ReferenceSchema {
    /// What resolvers receive as context.
    public struct Context: Sendable {
        public let store: any ContactStore
        public init(store: any ContactStore) { self.store = store }
    }

    /// A fresh executable schema.
    public static func make() throws -> GraphQLSchema {
        let base = try buildSchema(source: CarnetSchema.sdl)
        var interfaces: [String: GraphQLInterfaceType] = [:]
        let typeMap = base.typeMap
        func mapped(_ type: any GraphQLType) -> any GraphQLOutputType {
            switch type {
            case let nonNull as GraphQLNonNull:
                return GraphQLNonNull(mapped(nonNull.ofType) as! (any GraphQLNullableType))
            case let list as GraphQLList: return GraphQLList(mapped(list.ofType))
            case let interface as GraphQLInterfaceType: return interfaces[interface.name] ?? interface
            default: return type as! (any GraphQLOutputType)
            }
        }
        func rewire(_ fields: GraphQLFieldMap, typeName: String) -> GraphQLFieldMap {
            var result = GraphQLFieldMap()
            for (name, field) in fields {
                let resolver = ReferenceResolvers.resolver(type: typeName, field: name)
                result[name] = GraphQLField(
                    type: mapped(field.type), description: field.description,
                    deprecationReason: field.deprecationReason,
                    args: field.args, resolve: resolver)
            }
            return result
        }
        for case let interface as GraphQLInterfaceType in typeMap.values {
            let original = interface.fields
            interfaces[interface.name] = try GraphQLInterfaceType(
                name: interface.name, description: interface.description,
                fields: { rewire(try original(), typeName: interface.name) },
                resolveType: { value, _ in ReferenceRecords.typename(of: value) })
        }
        var types: [any GraphQLNamedType] = []
        for (name, type) in typeMap {
            switch type {
            case let object as GraphQLObjectType where !name.hasPrefix("__"):
                let fields = object.fields
                let implemented = object.interfaces
                object.fields = { rewire(try fields(), typeName: name) }
                object.interfaces = { try implemented().map { interfaces[$0.name] ?? $0 } }
                types.append(object)
            case let interface as GraphQLInterfaceType:
                types.append(interfaces[interface.name] ?? interface)
            default:
                if !name.hasPrefix("__") { types.append(type) }
            }
        }
        return try GraphQLSchema(
            query: base.queryType, mutation: base.mutationType, subscription: base.subscriptionType, types: types,
            directives: base.directives)
    }

    /// Runs a query with GraphQLSwift's executor and returns the result as JSON.
    public static func execute(
        _ schema: GraphQLSchema, store: any ContactStore, query: String, variables: [String: JSONValue] = [:],
        operationName: String? = nil
    ) async throws -> GraphQLResult {
        try await graphql(
            schema: schema, request: query, context: Context(store: store),
            variableValues: variables.mapValues(Map.init), operationName: operationName)
    }
}
