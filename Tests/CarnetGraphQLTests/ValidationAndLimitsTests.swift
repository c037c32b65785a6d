import CarnetGraphQL
import Testing

@Suite("Validation and limits")
struct ValidationAndLimitsTests {
    func errorCodes(_ fixture: GraphQLFixture, _ query: String, _ variables: [String: JSONValue] = [:]) async throws
        -> (codes: [String], response: JSONValue)
    {
        let response = try await fixture.run(query, variables)
        let codes = (response["errors"]?.arrayValue ?? []).compactMap { $0["extensions"]?["code"]?.stringValue }
        return (codes, response)
    }

    @Test("Conflicting fields with one response name are rejected (OverlappingFieldsCanBeMerged)")
    func overlappingFields() async throws {
        let fixture = try GraphQLFixture()
        let cases = [
            "{ contacts(first: 1) { nodes { a: givenName a: familyName } } }",
            "{ contacts(first: 1) { nodes { displayName(order: GIVEN_NAME_FIRST) displayName(order: FAMILY_NAME_FIRST) } } }",
            "{ contacts(first: 1) { nodes { ...A ...B } } } fragment A on Contact { x: givenName } fragment B on Contact { x: note }",
            "{ node(id: \"x\") { ... on Contact { x: givenName } ... on Group { x: memberCount } } }",
            // Below mutually exclusive parents the shape must agree at every level, not only the first.
            "{ node(id: \"x\") { ... on Contact { a: groups { c: container { d: name } } } "
                + "... on Group { a: members { c: container { d: isDefault } } } } }",
            // Inside introspection too.
            #"{ __type(name: "Group") { kind kind: name } }"#,
            "{ __schema { queryType { name } queryType: mutationType { name } } }",
            #"{ __type(name: "Group") { fields(includeDeprecated: true) { name } fields { name } } }"#,
        ]
        for query in cases {
            let (codes, response) = try await errorCodes(fixture, query)
            #expect(codes == ["GRAPHQL_VALIDATION_FAILED"], "\(query)")
            #expect(response["data"] == nil)
        }
        // Same field twice, or different fields on mutually exclusive types with the same shape, are fine.
        for query in [
            "{ contacts(first: 1) { nodes { a: givenName a: givenName } } }",
            "{ node(id: \"x\") { ... on Contact { x: id } ... on Group { x: id } } }",
            "{ node(id: \"x\") { ... on Contact { a: groups { c: container { d: name } } } "
                + "... on Group { a: members { c: container { d: name } } } } }",
            // Input object fields in another order are the same argument.
            #"{ contacts(filter: {name: "a", email: "b"}) { totalCount } "#
                + #"contacts(filter: {email: "b", name: "a"}) { totalCount } }"#,
            #"{ __type(name: "Group") { name name } t: __typename __typename }"#,
        ] {
            let (codes, _) = try await errorCodes(fixture, query)
            #expect(codes.isEmpty, "\(query)")
        }
    }

    @Test("Two identical operations or fragments are refused by name, not a trap in the library's validation")
    func identicalDefinitions() async throws {
        // GraphQLSwift's definitions hash by identity and compare by structure: these trapped the process.
        let fixture = try GraphQLFixture()
        for (query, message) in [
            ("{ __typename }\nquery { __typename }", "This anonymous operation must be the only defined operation."),
            ("{ __typename } { __typename }", "This anonymous operation must be the only defined operation."),
            ("query A { __typename } query A { __typename }", #"There can be only one operation named "A"."#),
            (
                "{ ...F } fragment F on Query { __typename } fragment F on Query { __typename }",
                #"There can be only one fragment named "F"."#
            ),
        ] {
            let (codes, response) = try await errorCodes(fixture, query)
            #expect(codes.first == "GRAPHQL_VALIDATION_FAILED", "\(query)")
            #expect(response["errors"]?[0]?["message"]?.stringValue == message, "\(query)")
            #expect(response["data"] == nil)
        }
        // At the names, as graphql-js reports them (an outside tester's note).
        let (_, duplicate) = try await errorCodes(fixture, "query A { __typename } query A { __typename }")
        #expect(
            duplicate["errors"]?[0]?["locations"]
                == .array([.object(["line": 1, "column": 7]), .object(["line": 1, "column": 30])]))
        // Two operations with one body and different names are fine.
        let named = try await fixture.run(
            "query A { __typename } query B { __typename }", operationName: "B")
        #expect(named["data"]?["__typename"] == "Query")
    }

    @Test("A subscription selects exactly one root field")
    func singleFieldSubscriptions() async throws {
        let fixture = try GraphQLFixture()
        let (codes, _) = try await errorCodes(
            fixture, "subscription { storeDidChange { historyToken } changeHistory { token } }")
        #expect(codes == ["GRAPHQL_VALIDATION_FAILED"])
        let (introspection, _) = try await errorCodes(fixture, "subscription { __typename }")
        #expect(introspection == ["GRAPHQL_VALIDATION_FAILED"])
        // Nor may the one field depend on `@skip` or `@include`, on it or on a fragment around it (an outside
        // tester's find: these ran).
        for document in [
            "subscription S($b: Boolean!) { storeDidChange @include(if: $b) { historyToken } }",
            "subscription { ... @skip(if: false) { storeDidChange { historyToken } } }",
            "subscription { ...F } fragment F on Subscription { storeDidChange @include(if: true) { historyToken } }",
        ] {
            let response = try await fixture.run(document, ["b": true])
            #expect(response["errors"]?[0]?["extensions"]?["code"] == "GRAPHQL_VALIDATION_FAILED", "\(document)")
            #expect(response["errors"]?[0]?["message"]?.stringValue?.contains("@skip") == true, "\(document)")
            #expect(response["errors"]?[0]?["locations"]?.arrayValue?.isEmpty == false, "\(document)")
        }
    }

    @Test("@oneOf inputs take exactly one non-null field, in literals and in variables")
    func oneOf() async throws {
        let fixture = try GraphQLFixture()
        let twoKeys =
            #"mutation { save(request: {operations: [{deleteContact: "a", deleteGroup: "b"}]}) { revision } }"#
        #expect(try await errorCodes(fixture, twoKeys).codes == ["GRAPHQL_VALIDATION_FAILED"])
        let nullKey = #"mutation { save(request: {operations: [{deleteContact: null}]}) { revision } }"#
        #expect(try await errorCodes(fixture, nullKey).codes == ["GRAPHQL_VALIDATION_FAILED"])
        let viaVariables = "mutation($r: SaveRequestInput!) { save(request: $r) { revision } }"
        let bad: JSONValue = .object(["operations": .array([.object(["deleteContact": "a", "deleteGroup": "b"])])])
        #expect(try await errorCodes(fixture, viaVariables, ["r": bad]).codes == ["BAD_USER_INPUT"])
    }

    /// GraphQLSwift's executor answers introspection at about 0.2 s per whole schema: 20 aliases of `__schema` in
    /// an 886-byte query were 4 s of CPU, and a new query each time escapes the introspection cache.
    @Test("At most two __schema fields a request, through aliases and fragments; MAX_INTROSPECTIONS_EXCEEDED past")
    func schemaIntrospections() async throws {
        let fixture = try GraphQLFixture()
        let three =
            "{ a: __schema { queryType { name } } b: __schema { types { name } } ...F } "
            + "fragment F on Query { c: __schema { mutationType { name } } }"
        #expect(try await errorCodes(fixture, three).codes == ["MAX_INTROSPECTIONS_EXCEEDED"])
        let many =
            "{ " + (0..<20).map { "a\($0): __schema { ...S }" }.joined(separator: " ")
            + " } fragment S on __Schema { types { name fields { name } } }"
        #expect(try await errorCodes(fixture, many).codes.contains("MAX_INTROSPECTIONS_EXCEEDED"))
        let two = try await errorCodes(fixture, "{ a: __schema { queryType { name } } b: __schema { types { name } } }")
        #expect(two.codes.isEmpty && two.response["data"]?["a"]?["queryType"]?["name"]?.stringValue == "Query")
        // The same field through two fragments merges into one; `__type` is one type and is not counted.
        let merged =
            "{ ...F ...F __type(name: \"Contact\") { name } t: __type(name: \"Group\") { name } } "
            + "fragment F on Query { __schema { queryType { name } } }"
        #expect(try await errorCodes(fixture, merged).codes.isEmpty)
    }

    @Test("Documented limits: size, tokens, depth, aliases, root fields, nodes; each with its code")
    func limits() async throws {
        var limits = GraphQLLimits()
        limits.maxDocumentBytes = 2_000
        limits.maxTokens = 200
        limits.maxDepth = 4
        limits.maxAliases = 3
        limits.maxRootFields = 3
        limits.maxNodes = 5_000
        let fixture = try GraphQLFixture(limits: limits)
        #expect(
            try await errorCodes(fixture, "{ " + String(repeating: "__typename ", count: 250) + "}").codes == [
                "DOCUMENT_TOO_LARGE"
            ])
        #expect(
            try await errorCodes(fixture, "{ " + String(repeating: "a: __typename ", count: 80) + "}").codes == [
                "TOO_MANY_TOKENS"
            ])
        #expect(
            try await errorCodes(fixture, "{ groups { members { groups { members { id } } } } }").codes == [
                "MAX_DEPTH_EXCEEDED"
            ])
        let deepFragment = "{ groups { ...G } } fragment G on Group { members { groups { members { id } } } }"
        #expect(try await errorCodes(fixture, deepFragment).codes == ["MAX_DEPTH_EXCEEDED"])
        #expect(
            try await errorCodes(
                fixture,
                "{ a: currentHistoryToken b: currentHistoryToken c: currentHistoryToken d: currentHistoryToken }"
            ).codes.contains("MAX_ALIASES_EXCEEDED"))
        let aliasFragments = "{ ...F ...F } fragment F on Query { a: currentHistoryToken b: currentHistoryToken }"
        // Aliases count where fragments expand, so a fragment spread many times cannot multiply them unseen.
        #expect(try await errorCodes(fixture, aliasFragments).codes == ["MAX_ALIASES_EXCEEDED"])
        #expect(
            try await errorCodes(
                fixture, "{ containers { id } defaultContainer { id } currentHistoryToken groups { id } }"
            ).codes == ["MAX_ROOT_FIELDS_EXCEEDED"])
        // The same field again merges into one, which runs once: counted once, however often it is written.
        let repeated = "{ ...F currentHistoryToken currentHistoryToken } fragment F on Query { currentHistoryToken }"
        #expect(try await fixture.run(repeated)["errors"] == nil)
        limits.maxDepth = 16
        let nodes = try GraphQLFixture(limits: limits)
        // 100 contacts + 100 × 10 (estimated) groups + 100 × 10 × 100 members.
        #expect(
            try await errorCodes(nodes, "{ contacts(first: 100) { nodes { groups { members(first: 100) { id } } } } }")
                .codes == ["MAX_NODES_EXCEEDED"])
        #expect(
            try await errorCodes(nodes, "query($n: Int) { contacts(first: $n) { nodes { id } } }", ["n": 10_000]).codes
                == ["MAX_NODES_EXCEEDED"])
        #expect(
            try await errorCodes(nodes, "{ contacts(first: 10) { nodes { groups { members(first: 10) { id } } } } }")
                .codes.isEmpty)
    }

    @Test("Page sizes outside 1–1000 are field errors with BAD_USER_INPUT")
    func pageSizes() async throws {
        let fixture = try GraphQLFixture()
        for query in [
            "{ contacts(first: 0) { totalCount } }", "{ contacts(first: 1001) { totalCount } }",
            "{ contacts(first: 2, last: 2) { totalCount } }",
        ] {
            let (codes, response) = try await errorCodes(fixture, query)
            #expect(codes == ["BAD_USER_INPUT"], "\(query)")
            #expect(response["data"] == .null, "a non-null root field failing nulls data")
        }
    }

    @Test("Introspection can be switched off; __typename stays")
    func introspectionSwitch() async throws {
        var limits = GraphQLLimits()
        limits.introspectionEnabled = false
        let fixture = try GraphQLFixture(limits: limits)
        #expect(try await errorCodes(fixture, "{ __schema { types { name } } }").codes == ["INTROSPECTION_DISABLED"])
        #expect(try await errorCodes(fixture, "{ contacts(first: 1) { nodes { __type: __typename } } }").codes.isEmpty)
        let on = try GraphQLFixture()
        let data = try await on.data(#"{ __type(name: "Contact") { name kind fields { name } } __typename }"#)
        #expect(data["__type"]?["name"] == "Contact")
        #expect(data["__typename"] == "Query")
    }
}
