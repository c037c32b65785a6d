import GraphQL

/// Carnet's GraphQL schema, built from its SDL (`schema/carnet.graphql` is this schema, printed).
///
/// The library's types serve parsing, validation and introspection; execution is Carnet's own.
public enum CarnetSchema {
    /// The SDL the schema is built from.
    public static var sdl: String { rootSDL + "\n" + typesSDL }

    /// The schema. Built once; a failure is a programming error caught by the tests.
    public static let schema: GraphQLSchema = {
        do {
            return try buildSchema(source: sdl)
        } catch {
            fatalError("Carnet's SDL does not build: \(error)")
        }
    }()

    /// The schema printed as SDL, as `carnet schema` shows it and `schema/carnet.graphql` holds it.
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
