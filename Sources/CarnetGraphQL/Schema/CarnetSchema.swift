import GraphQL

/// Carnet's GraphQL schema, built from `schema/carnet.graphql`: the API contract is that file, embedded in the
/// module (`Schema/carnet.graphql` links to it), and nothing else states it.
///
/// The library's types serve parsing, validation and introspection; execution is Carnet's own.
public enum CarnetSchema {
    /// The SDL the schema is built from: the text of `schema/carnet.graphql`.
    public static let sdl = String(decoding: PackageResources.carnet_graphql, as: UTF8.self)

    /// The schema. Built once, when the service is made (``GraphQLService`` reads it first), so a file that does
    /// not build stops the process at start, never on a request; `SchemaTests` build it on every test run.
    public static let schema: GraphQLSchema = {
        do {
            return try buildSchema(source: sdl)
        } catch {
            fatalError("schema/carnet.graphql does not build: \(error)")
        }
    }()

    /// The schema printed as SDL, as `carnet schema` shows it. It equals `schema/carnet.graphql` (a test checks
    /// it), so the file is always in the printer's canonical form and a diff of it is a diff of the contract.
    ///
    /// GraphQLSwift's printer leaves out `@oneOf`; this puts it back so the file states the contract whole.
    public static var printed: String {
        var text = printSchema(schema: schema)
        for case let type as GraphQLInputObjectType in schema.typeMap.values where type.isOneOf {
            text = text.replacingOccurrences(of: "input \(type.name) {", with: "input \(type.name) @oneOf {")
        }
        return text + "\n"
    }
}
