import CarnetGraphQL
import Testing

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
    }

    @Test("A null reaching @skip/@include's Boolean! through a variable with a default is a request error")
    func nullDirectiveCondition() async throws {
        let fixture = try GraphQLFixture()
        for query in [
            "query($b: Boolean = true) { groups { id name @include(if: $b) } }",
            "query($b: Boolean = false) { groups { id name @skip(if: $b) } }",
            #"query($b: Boolean = true) { __type(name: "Group") { name @include(if: $b) } }"#,
            "query($b: Boolean = true) { ...F } fragment F on Query { __typename @include(if: $b) }",
        ] {
            let (codes, response) = try await outcome(fixture, query, ["b": .null])
            #expect(codes == ["BAD_USER_INPUT"], "\(query): \(response)")
            #expect(response["data"] == nil)
            // Absent, the default holds.
            #expect(try await outcome(fixture, query).codes == [], "\(query)")
        }
        // `__type(name: String!)` fed a null the same way.
        let (codes, response) = try await outcome(
            fixture, #"query($n: String = "Group") { __type(name: $n) { name } }"#, ["n": .null])
        #expect(codes == ["BAD_USER_INPUT"], "\(response)")
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
