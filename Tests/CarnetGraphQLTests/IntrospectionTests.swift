@testable import CarnetGraphQL
import Testing

@Suite("Introspection")
struct IntrospectionTests {
    /// What graphql-core 3.3 (and so Python's gql) sends by default, with deprecated input values asked for.
    static let toolsQuery = """
        query IntrospectionQuery {
          __schema {
            queryType { name } mutationType { name } subscriptionType { name }
            types { ...FullType }
            directives { name description isRepeatable locations args(includeDeprecated: true) { ...InputValue } }
          }
        }
        fragment FullType on __Type {
          kind name description specifiedByURL isOneOf
          fields(includeDeprecated: true) { name description args(includeDeprecated: true) { ...InputValue }
            type { ...TypeRef } isDeprecated deprecationReason }
          inputFields(includeDeprecated: true) { ...InputValue }
          interfaces { ...TypeRef }
          enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
          possibleTypes { ...TypeRef }
        }
        fragment InputValue on __InputValue {
          name description type { ...TypeRef } defaultValue isDeprecated deprecationReason
        }
        fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }
        """

    @Test("The introspection query tools send, with isDeprecated on input values, answers for the whole schema")
    func toolsIntrospection() async throws {
        let fixture = try GraphQLFixture()
        let data = try await fixture.data(Self.toolsQuery)
        let types = try #require(data["__schema"]?["types"]?.arrayValue)
        let input = try #require(types.first { $0["name"]?.stringValue == "SaveRequestInput" })
        let field = try #require(input["inputFields"]?[0])
        #expect(field["isDeprecated"] == .bool(false))
        #expect(field["deprecationReason"] == .null)
        #expect(field.objectValue?.keys.contains { $0.hasPrefix("__carnet") } == false)
        #expect(input["isOneOf"] == .bool(false))
    }

    @Test("Aliases, variables, strings and fragment names survive the isDeprecated rewrite")
    func rewrite() {
        #expect(DeprecationPatch.rewrite("{ a { isDeprecated } }")
            == "{ a { isDeprecated: __typename __carnetDeprecated_isDeprecated: deprecationReason } }")
        #expect(DeprecationPatch.rewrite("{ a { gone: isDeprecated } }")
            == "{ a { gone: __typename __carnetDeprecated_gone: deprecationReason } }")
        #expect(DeprecationPatch.rewrite(#"{ __type(name: "isDeprecated") { name } }"#) == #"{ __type(name: "isDeprecated") { name } }"#)
        #expect(DeprecationPatch.rewrite("query($isDeprecated: Boolean) { a }") == "query($isDeprecated: Boolean) { a }")
    }
}
