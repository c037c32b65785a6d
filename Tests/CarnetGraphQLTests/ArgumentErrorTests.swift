import Testing

@testable import CarnetGraphQL

/// Mistakes in a field's arguments: which phase reports them and with which code.
@Suite("Argument errors")
struct ArgumentErrorTests {
    func outcome(_ fixture: GraphQLFixture, _ query: String, _ variables: [String: JSONValue] = [:]) async throws
        -> (codes: [String], response: JSONValue)
    {
        let response = try await fixture.run(query, variables)
        return ((response["errors"]?.arrayValue ?? []).compactMap { $0["extensions"]?["code"]?.stringValue }, response)
    }

    @Test("An Int literal outside 32 bits fails validation (no data), as in graphql-js; a variable fails coercion")
    func intLiteralRange() async throws {
        let fixture = try GraphQLFixture()
        for query in [
            "{ contacts(first: 2147483648) { totalCount } }", "{ contacts(first: -2147483649) { totalCount } }",
            "query($n: Int = 99999999999) { contacts(first: $n) { totalCount } }",
        ] {
            let (codes, response) = try await outcome(fixture, query)
            #expect(codes == ["GRAPHQL_VALIDATION_FAILED"], "\(query)")
            #expect(response["data"] == nil)
            #expect(
                response["errors"]?[0]?["message"]
                    == .string(
                        "Int cannot represent non 32-bit signed integer value: \(query.contains("-") ? "-2147483649" : query.contains("999") ? "99999999999" : "2147483648")"
                    ))
        }
        let variable = try await outcome(
            fixture, "query($n: Int) { contacts(first: $n) { totalCount } }", ["n": 2_147_483_648])
        #expect(variable.codes == ["BAD_USER_INPUT"])
        #expect(variable.response["data"] == nil)
    }

    @Test("A JSON number with an integral value is an Int down to Int32.min, and an ID, as in graphql-js")
    func integralNumbers() async throws {
        let fixture = try GraphQLFixture()
        // Coerced, the value reaches the field, which may still refuse it (with data, unlike a coercion failure).
        let query = "query($n: Int) { changeHistory(first: $n) { hasMore } }"
        for value in [-2_147_483_648.0, 2_147_483_647.0, 100.0] {
            let (_, response) = try await outcome(fixture, query, ["n": .double(value)])
            #expect(response["errors"]?[0]?["message"]?.stringValue?.contains("32-bit") != true, "\(value)")
            #expect(response["data"] != nil || response["errors"]?[0]?["extensions"]?["code"] == "MAX_NODES_EXCEEDED")
        }
        let tooLow = try await outcome(fixture, query, ["n": .double(-2_147_483_649.0)])
        #expect(tooLow.codes == ["BAD_USER_INPUT"])
        #expect(tooLow.response["data"] == nil)
        let id = try await outcome(fixture, "query($id: ID!) { contact(id: $id) { id } }", ["id": .double(7.0)])
        #expect(id.codes == [])
        #expect(id.response["data"]?["contact"] == .null)
        // Past Int's range too, written as graphql-js writes it; in the document as in a variable (an outside
        // tester's find: refused, though the literal passed validation).
        for large in [12_345_678_901_234_567_890.0, -9_223_372_036_854_775_809.0, 1e100] {
            let big = try await outcome(fixture, "query($id: ID!) { contact(id: $id) { id } }", ["id": .double(large)])
            #expect(big.codes == [] && big.response["data"]?["contact"] == .null, "\(large)")
        }
        let literal = try await outcome(fixture, "{ contact(id: 12345678901234567890) { id } }", [:])
        #expect(literal.codes == [] && literal.response["data"]?["contact"] == .null)
        #expect(InputCoercion.integerText(12_345_678_901_234_567_890.0) == "12345678901234567000")
        #expect(InputCoercion.integerText(-1.5e20) == "-150000000000000000000")
        #expect(InputCoercion.integerText(1e100) == "1" + String(repeating: "0", count: 100))
        #expect(InputCoercion.integerText(4_503_599_627_370_497.0) == "4503599627370497")
    }

    /// `if` is a `Boolean!` that a nullable variable with a default may fill; an explicit null fails where the
    /// selection set holding the directive is collected (CoerceArgumentValues), as in graphql-js: each object
    /// completed with it is null with the error at its path (or the failure propagates), and the rest of the data
    /// stands. It was a request error, no data at all.
    @Test("A null reaching @skip/@include's Boolean! fails each object completed with it; the rest stands")
    func nullDirectiveCondition() async throws {
        let fixture = try GraphQLFixture()
        try await SampleData.seed(fixture.store)
        let nullable = try await outcome(
            fixture,
            #"query($b: Boolean = true) { a: container(id: "nope") { id } c: contact(id: "x") { id } "#
                + "containers { name @include(if: $b) } __typename }",
            ["b": .null])
        // Each container fails where it is completed; `containers` is [Container!]!, so the first one's failure
        // nulls the data as a whole.
        #expect(nullable.codes == ["BAD_USER_INPUT"], "\(nullable.response)")
        #expect(nullable.response["data"] == .null)
        #expect(nullable.response["errors"]?[0]?["path"] == ["containers", 0])
        // A value that is null, or a list that is empty, completes no object: nothing fails (graphql-js).
        let none = try await outcome(
            fixture,
            #"query($b: Boolean = true) { contact(id: "nope") { id @include(if: $b) } "#
                + #"contacts(first: 5, filter: { ids: ["nope"] }) { nodes { id @include(if: $b) } } }"#,
            ["b": .null])
        #expect(none.codes == [], "\(none.response)")
        #expect(none.response["data"]?["contact"] == .null)
        #expect(none.response["data"]?["contacts"]?["nodes"] == [])

        let contact = try await fixture.data("{ contacts(first: 1) { nodes { id } } }")
        let id = try #require(contact["contacts"]?["nodes"]?[0]?["id"]?.stringValue)
        let query = """
            query($b: Boolean = false, $id: ID!) {
              first: contact(id: $id) { id givenName @skip(if: $b) }
              second: contact(id: $id) { id }
              __typename
            }
            """
        let (codes, response) = try await outcome(fixture, query, ["b": .null, "id": .string(id)])
        #expect(codes == ["BAD_USER_INPUT"], "\(response)")
        #expect(response["data"]?["first"] == .null)
        #expect(response["data"]?["second"]?["id"] == .string(id))
        #expect(response["data"]?["__typename"] == "Query")
        #expect(response["errors"]?[0]?["path"] == ["first"])
        // Located at the null condition, as graphql-js locates it.
        let line = query.split(separator: "\n")[1]
        let column = line.distance(from: line.startIndex, to: try #require(line.firstRange(of: "$b")).lowerBound) + 1
        #expect(response["errors"]?[0]?["locations"] == [["line": 2, "column": .int(column)]])
        // The plan cache tells null from false and true.
        #expect(try await outcome(fixture, query, ["b": false, "id": .string(id)]).codes == [])
        #expect(try await outcome(fixture, query, ["b": true, "id": .string(id)]).codes == [])
        #expect(try await outcome(fixture, query, ["b": .null, "id": .string(id)]).codes == ["BAD_USER_INPUT"])
        // Absent, the default holds.
        #expect(try await outcome(fixture, query, ["id": .string(id)]).codes == [])

        // At the root: the operation's data is null, the error has no path.
        for root in [
            "query($b: Boolean = true) { __typename @include(if: $b) }",
            "query($b: Boolean = true) { ...F } fragment F on Query { __typename @include(if: $b) }",
            "query($b: Boolean = true) { ... @skip(if: $b) { __typename } }",
        ] {
            let (codes, response) = try await outcome(fixture, root, ["b": .null])
            #expect(codes == ["BAD_USER_INPUT"], "\(root): \(response)")
            #expect(response["data"] == .null, "\(root)")
            #expect(response["errors"]?[0]?["path"] == nil, "\(root)")
        }
        // @skip is read before @include, so a skipped selection's null @include is never read (graphql-js).
        for skipped in [
            "query($b: Boolean = true) { containers @include(if: $b) @skip(if: true) { id } __typename }",
            "query($b: Boolean = true) { ... @include(if: $b) @skip(if: true) { containers { id } } __typename }",
        ] {
            let (codes, response) = try await outcome(fixture, skipped, ["b": .null])
            #expect(codes == [] && response["data"] == ["__typename": "Query"], "\(skipped): \(response)")
        }
        // A fragment spread a second time is not collected again, so its directives are not read (graphql-js).
        let twice = try await outcome(
            fixture, "query($b: Boolean = true) { ...F ...F @include(if: $b) } fragment F on Query { __typename }",
            ["b": .null])
        #expect(twice.codes == [] && twice.response["data"]?["__typename"] == "Query", "\(twice.response)")

        // Introspection (run by GraphQLSwift's executor): the same error at its field, not an internal error.
        let introspection = try await outcome(
            fixture, #"query($b: Boolean = true) { __type(name: "Group") { name @include(if: $b) } __typename }"#,
            ["b": .null])
        #expect(introspection.codes == ["BAD_USER_INPUT"], "\(introspection.response)")
        #expect(introspection.response["data"]?["__type"] == .null)
        #expect(introspection.response["data"]?["__typename"] == "Query")
        #expect(introspection.response["errors"]?[0]?["path"] == ["__type"])
        // Deeper, where GraphQLSwift meets it: what holds it is null, the error at its path; a selection never
        // collected (Boolean has no input fields) raises nothing.
        let deeper = try await outcome(
            fixture,
            #"query($b: Boolean = true) { __type(name: "ContactFilter") { name inputFields { name @include(if: $b) } } }"#,
            ["b": .null])
        #expect(deeper.codes == ["BAD_USER_INPUT"], "\(deeper.response)")
        #expect(deeper.response["data"]?["__type"]?["name"] == "ContactFilter")
        #expect(deeper.response["data"]?["__type"]?["inputFields"] == .null)
        #expect(deeper.response["errors"]?[0]?["path"]?[0] == "__type")
        let never = try await outcome(
            fixture,
            #"query($b: Boolean = true) { __type(name: "Boolean") { name inputFields { name @include(if: $b) } } }"#,
            ["b": .null])
        #expect(never.codes == [], "\(never.response)")
        #expect(never.response["data"]?["__type"] == ["name": "Boolean", "inputFields": .null])
        // `__schema` is non-null: a null that reaches it nulls the operation's data (an outside fuzzer's seed
        // 300178 got `{"a":null}`), whether the condition stands on one of its fields or deeper.
        for schema in [
            "query($b: Boolean = true) { a: __schema { types { name @include(if: $b) } } __typename }",
            "query($b: Boolean = true) { a: __schema { types { ofType @include(if: $b) { name } } } __typename }",
        ] {
            let (codes, response) = try await outcome(fixture, schema, ["b": .null])
            #expect(codes == ["BAD_USER_INPUT"], "\(schema): \(response)")
            #expect(response["data"] == .null, "\(schema): \(response)")
        }
        // `__type(name: String!)` fed a null the same way.
        let (nameCodes, nameResponse) = try await outcome(
            fixture, #"query($n: String = "Group") { __type(name: $n) { name } }"#, ["n": .null])
        #expect(nameCodes == ["BAD_USER_INPUT"], "\(nameResponse)")
    }

    @Test("Cursors: `before` needs `last`, `after` refuses `last`; malformed cursors are BAD_USER_INPUT either way")
    func cursors() async throws {
        let fixture = try GraphQLFixture()
        try await SampleData.seed(fixture.store)
        let page = try await fixture.data("{ contacts(first: 3) { edges { cursor } } }")
        let cursor = try #require(page["contacts"]?["edges"]?[1]?["cursor"]?.stringValue)
        for arguments in [
            #"before: "\#(cursor)""#, #"after: "\#(cursor)", before: "\#(cursor)""#,
            #"first: 2, before: "\#(cursor)""#, #"last: 2, after: "\#(cursor)""#, #"before: "not a cursor""#,
            #"last: 2, after: "not a cursor""#, #"after: "not a cursor""#, #"last: 2, before: "not a cursor""#,
        ] {
            let (codes, response) = try await outcome(fixture, "{ contacts(\(arguments)) { totalCount } }")
            #expect(codes == ["BAD_USER_INPUT"], "\(arguments): \(response)")
        }
        // The combinations the store applies still work: after with first, before with last.
        let after = try await fixture.data(#"{ contacts(first: 1, after: "\#(cursor)") { edges { cursor } } }"#)
        #expect(after["contacts"]?["edges"]?[0]?["cursor"] == page["contacts"]?["edges"]?[2]?["cursor"])
        let before = try await fixture.data(#"{ contacts(last: 1, before: "\#(cursor)") { edges { cursor } } }"#)
        #expect(before["contacts"]?["edges"]?[0]?["cursor"] == page["contacts"]?["edges"]?[0]?["cursor"])
    }

    @Test("changeHistory(first:) out of range is BAD_USER_INPUT, like every other bad argument")
    func historyPageSize() async throws {
        let fixture = try GraphQLFixture()
        for size in [0, 10_001] {
            let (codes, _) = try await outcome(fixture, "{ changeHistory(first: \(size)) { token } }")
            #expect(codes == ["BAD_USER_INPUT"], "\(size)")
        }
    }
}
