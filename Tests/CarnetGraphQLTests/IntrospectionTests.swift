import Testing

@testable import CarnetGraphQL

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

    @Test("Aliases, variables, strings, fragment names and directives survive the isDeprecated rewrite")
    func rewrite() {
        func rewrite(_ text: String) -> String {
            DeprecationPatch.rewrite(text, hiddenPrefix: DeprecationPatch.hiddenPrefix(for: text))
        }
        #expect(
            rewrite("{ a { isDeprecated } }")
                == "{ a { isDeprecated: __typename __carnetDeprecated_isDeprecated: deprecationReason } }")
        #expect(
            rewrite("{ a { gone: isDeprecated } }")
                == "{ a { gone: __typename __carnetDeprecated_gone: deprecationReason } }")
        #expect(
            rewrite(#"{ a { isDeprecated @include(if: $b) @skip(if: false) name } }"#)
                == #"{ a { isDeprecated: __typename @include(if: $b) @skip(if: false) "#
                + #"__carnetDeprecated_isDeprecated: deprecationReason @include(if: $b) @skip(if: false) name } }"#)
        // A client's alias may be any name, the hidden prefix too: the hidden keys take one no alias has.
        #expect(
            rewrite("{ a { __carnetDeprecated_x: name isDeprecated } }")
                == "{ a { __carnetDeprecated_x: name isDeprecated: __typename "
                + "__carnetDeprecated___isDeprecated: deprecationReason } }")
        #expect(rewrite(#"{ __type(name: "isDeprecated") { name } }"#) == #"{ __type(name: "isDeprecated") { name } }"#)
        #expect(rewrite("query($isDeprecated: Boolean) { a }") == "query($isDeprecated: Boolean) { a }")
    }

    @Test("isDeprecated under @skip/@include is left out or kept like any field, in selection order")
    func deprecationDirectives() async throws {
        let fixture = try GraphQLFixture()
        for (selection, first) in [
            ("name isDeprecated @include(if: false)", #"{"name":"id"}"#),
            ("name isDeprecated @skip(if: true)", #"{"name":"id"}"#),
            ("isDeprecated @include(if: false) name isDeprecated", #"{"name":"id","isDeprecated":false}"#),
            ("gone: isDeprecated @include(if: true) name", #"{"gone":false,"name":"id"}"#),
            ("__carnetDeprecated_x: name isDeprecated", #"{"__carnetDeprecated_x":"id","isDeprecated":false}"#),
        ] {
            let response = await fixture.service.execute(
                GraphQLRequestBody(query: #"{ __type(name: "Group") { fields { \#(selection) } } }"#))
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(
                text.hasPrefix(#"{"data":{"__type":{"fields":["# + first + ","), "\(selection): \(text.prefix(200))")
        }
    }

    /// `isDeprecated` after `... {` (an inline fragment without a type condition) was taken for a fragment's name
    /// and left to GraphQLSwift, whose null for an input value failed the whole `__type` as an internal error.
    @Test("isDeprecated in an inline fragment without a type condition")
    func deprecationInBareInlineFragment() async throws {
        let fixture = try GraphQLFixture()
        for selection in ["... { isDeprecated }", "...{isDeprecated}", "... @include(if: true) { isDeprecated }"] {
            let response = await fixture.service.execute(
                GraphQLRequestBody(query: #"{ __type(name: "ContactFilter") { inputFields { \#(selection) } } }"#))
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(
                text.hasPrefix(#"{"data":{"__type":{"inputFields":[{"isDeprecated":false},"#), "\(text.prefix(300))")
        }
    }

    @Test("Types, fields, arguments, input fields and enum values come in definition order")
    func definitionOrder() async throws {
        let fixture = try GraphQLFixture()
        let data = try await fixture.data(Self.toolsQuery)
        let types = try #require(data["__schema"]?["types"]?.arrayValue)
        #expect(types.compactMap { $0["name"]?.stringValue } == Array(CarnetSchema.schema.typeMap.keys))
        for type in types {
            let name = type["name"]?.stringValue ?? ""
            guard let order = SchemaOrder.shared.members[name] else { continue }
            let listed =
                (type["fields"]?.arrayValue ?? type["inputFields"]?.arrayValue ?? type["enumValues"]?.arrayValue ?? [])
                .compactMap { $0["name"]?.stringValue }
            #expect(listed == order, "\(name)")
            for field in type["fields"]?.arrayValue ?? [] {
                let fieldName = field["name"]?.stringValue ?? ""
                #expect(
                    field["args"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
                        == SchemaOrder.shared.arguments["\(name).\(fieldName)"], "\(name).\(fieldName)")
            }
        }
        let query = try #require(types.first(where: { $0["name"] == "Query" }))
        let contacts = try #require(query["fields"]?.arrayValue?.first(where: { $0["name"] == "contacts" }))
        #expect(
            contacts["args"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
                == ["filter", "sortOrder", "first", "after", "last", "before", "unify"])
    }

    @Test("isOneOf is null except on input objects; input fields report their SDL defaults; no stray backslashes")
    func oneOfDefaultsAndDescriptions() async throws {
        let fixture = try GraphQLFixture()
        let data = try await fixture.data(
            """
            { contact: __type(name: "Contact") { isOneOf fields { type { isOneOf ofType { isOneOf } } } }
              save: __type(name: "SaveOperationInput") { isOneOf }
              filter: __type(name: "ContactFilter") { isOneOf }
              address: __type(name: "PostalAddressInput") { inputFields { name defaultValue } }
              kind: __type(name: "__TypeKind") { description enumValues { description } }
              type: __type(name: "__Type") { description } }
            """)
        #expect(data["contact"]?["isOneOf"] == .null)
        #expect(data["contact"]?["fields"]?[0]?["type"]?["isOneOf"] == .null)
        #expect(data["contact"]?["fields"]?[0]?["type"]?["ofType"]?["isOneOf"] == .null)
        #expect(data["save"]?["isOneOf"] == true)
        #expect(data["filter"]?["isOneOf"] == false)
        let defaults = data["address"]?["inputFields"]?.arrayValue ?? []
        #expect(defaults.count == 8)
        #expect(defaults.allSatisfy { $0["defaultValue"] == .string(#""""#) }, "\(defaults)")
        #expect(!data.json.contains("\\\\`"), "no backslash before a backtick in any description")
    }
}
