import GraphQL
import Testing

@testable import CarnetGraphQL

/// String escapes of the 2021 spec, and error positions counted in code points, checked against graphql-core
/// 3.2.8 (the expected lines and columns below are what it reports for the same documents).
@Suite("String escapes and error positions")
struct StringAndPositionTests {
    func errors(_ fixture: GraphQLFixture, _ query: String) async throws -> [JSONValue] {
        try await fixture.run(query)["errors"]?.arrayValue ?? []
    }

    static func location(_ error: JSONValue?) -> [Int] {
        [error?["locations"]?[0]?["line"]?.intValue ?? 0, error?["locations"]?[0]?["column"]?.intValue ?? 0]
    }

    @Test(
        "Surrogate pairs and braced escapes decode to the characters they denote",
        arguments: [
            (#"\uD83D\uDE00"#, "😀"), (#"\u{1F600}"#, "😀"), (#"\u{E9}"#, "é"), (#"\u{22}\u{5C}"#, "\"\\"),
            (#"\u{41}\u{2F}\u{7E}"#, "A/~"), (#"\u00e9 \uD83D\uDE00 \u{1F600}"#, "é 😀 😀"),
        ])
    func escapes(written: String, value: String) async throws {
        let fixture = try GraphQLFixture()
        let data = try await fixture.data(
            #"mutation { save(request: {operations: [{addContact: {id: "e-1", givenName: "\#(written)"}}]}) { revision } }"#
        )
        #expect(data["save"]?["revision"] != nil)
        let read = try await fixture.data(#"{ contact(id: "e-1") { givenName } }"#)
        #expect(read["contact"]?["givenName"] == .string(value))
        // The same escape inside a block string is not an escape.
        let block = try await fixture.data(#"{ contacts(filter: {name: """\#(written)"""}) { totalCount } }"#)
        #expect(block["contacts"]?["totalCount"] == 0)
    }

    @Test("\\f is U+000C (GraphQLSwift reads U+0012), and positions after it stay exact")
    func formFeed() async throws {
        let fixture = try GraphQLFixture()
        // The store keeps no control characters, so the value is checked where the library parses it.
        let rewrite = try #require(try StringEscapes.rewrite(Array(#"{ a(b: "a\fb") }"#.utf8)))
        let document = try GraphQL.parse(source: Source(body: rewrite.text))
        let operation = try #require(document.definitions.first as? OperationDefinition)
        let field = try #require(operation.selectionSet.selections.first as? Field)
        #expect((field.arguments.first?.value as? StringValue)?.value == "a\u{0C}b")
        let found = try await errors(fixture, #"{ contacts(filter: {name: "\f\f"}) { nope } }"#)
        #expect(Self.location(found.first) == [1, 38])
    }

    @Test(
        "Lone surrogates and malformed escapes are syntax errors at the escape, with graphql-js's message",
        arguments: [
            (#"\uD83D"#, 28), (#"é\u{D800}"#, 29), (#"\u{110000}"#, 28), (#"\uXYZ1"#, 28), (#"\uDE00\uD83D"#, 28),
            (#"\u{}"#, 28), (#"\u{1F600"#, 28),
        ])
    func invalidEscapes(written: String, column: Int) async throws {
        let fixture = try GraphQLFixture()
        let found = try await errors(fixture, #"{ contacts(filter: {name: "\#(written)"}) { totalCount } }"#)
        #expect(found.count == 1)
        #expect(found.first?["extensions"]?["code"] == "GRAPHQL_PARSE_FAILED")
        let message = found.first?["message"]?.stringValue ?? ""
        #expect(message.hasPrefix("Syntax Error: Invalid Unicode escape sequence: \"\\u"), "\(message)")
        #expect(!message.contains("Swift") && !message.contains("UTF8View"))
        #expect(Self.location(found.first) == [1, column])
    }

    /// An outside tester's find: the character was named by its first UTF-8 byte (`é` as `Ã`), and a NUL was put
    /// in the message raw.
    @Test(
        "A character the lexer stops at is named as graphql-js names it, after rewritten escapes too",
        arguments: [
            ("{ é }", "Syntax Error: Unexpected character: U+00E9.", 3),
            ("{ 🙂 }", "Syntax Error: Unexpected character: U+1F642.", 3),
            ("{ a } \u{A0}", "Syntax Error: Unexpected character: U+00A0.", 7),
            ("{ ? }", #"Syntax Error: Unexpected character: "?"."#, 3),
            ("{ a(b: \"\\u00e9\") } é", "Syntax Error: Unexpected character: U+00E9.", 20),
            ("{ \u{0} }", "Syntax Error: Invalid character: U+0000.", 3),
            ("{ a(x: 1.é) }", "Syntax Error: Invalid number, expected digit but got: U+00E9.", 10),
            ("{ a(x: 1.x) }", #"Syntax Error: Invalid number, expected digit but got: "x"."#, 10),
            ("{ a(x: 1e\u{1}) }", "Syntax Error: Invalid number, expected digit but got: U+0001.", 10),
        ])
    func unexpectedCharacters(document: String, message: String, column: Int) async throws {
        let fixture = try GraphQLFixture()
        let found = try await errors(fixture, document)
        #expect(found.count == 1)
        #expect(found.first?["extensions"]?["code"] == "GRAPHQL_PARSE_FAILED")
        #expect(found.first?["message"]?.stringValue == message)
        #expect(Self.location(found.first) == [1, column])
    }

    @Test(
        "Parse and validation errors are located in code points, after non-ASCII text and rewritten escapes",
        arguments: [
            ("{ contacts(filter: {name: \"é\"}) { nope } }", [1, 35]),
            ("# comment 😀\n{ contacts(first: 1) { nodes { givenName(x: 1) } } }", [2, 42]),
            ("{ contacts(filter: {name: \"José\"}) { totalCount } } }", [1, 53]),
            ("query {\r\n  contacts(filter: {name: \"Zoë Ångström\"}) {\r\n    nope\r\n  }\r\n}", [3, 5]),
            ("{ contacts(filter: {name: \"\\u{1F600}\"}) { nope } }", [1, 43]),
            ("{ contacts(filter: {name: \"\\uD83D\\uDE00 é\"}) { nope } }", [1, 48]),
        ])
    func locations(query: String, expected: [Int]) async throws {
        let fixture = try GraphQLFixture()
        let found = try await errors(fixture, query)
        #expect(found.count == 1, "\(found)")
        #expect(Self.location(found.first) == expected)
        let message = found.first?["message"]?.stringValue ?? ""
        #expect(message.contains("GraphQL request (") == false, "no position of the library's in the message")
    }

    @Test("Field and variable errors point at the field (its alias) and the variable, in code points")
    func fieldErrorLocations() async throws {
        let fixture = try GraphQLFixture()
        let field = try await errors(fixture, "# é😀\n{ a: contacts(filter: {name: \"é\"}, first: 0) { totalCount } }")
        #expect(field.first?["extensions"]?["code"] == "BAD_USER_INPUT")
        #expect(Self.location(field.first) == [2, 3])
        let variable = try await fixture.run(
            "query(\n  $e: String = \"é\", $n: Int!) { contacts(first: $n, filter: {name: $e}) { totalCount } }")
        let error = variable["errors"]?[0]
        #expect(error?["extensions"]?["code"] == "BAD_USER_INPUT")
        #expect(Self.location(error) == [2, 21])
    }

    /// Every definition's position is found in one pass for the whole document (once per definition, it rescanned
    /// the text each time): a bad variable of a later operation still points at its own definition.
    @Test("Variable errors point at their definitions in any operation of the document")
    func variablePositions() async throws {
        let fixture = try GraphQLFixture()
        let document = """
            query A($a: Int, $b: Int) { contacts(first: $a) { totalCount } c: contacts(first: $b) { totalCount } }
            # é😀
            query B($x: Int, $y: Int,
              $z: Int) { contacts(first: $x) { totalCount } c: contacts(first: $y) { totalCount } d: contacts(first: $z) { totalCount } }
            """
        let result = try await fixture.run(document, ["x": 1, "y": 2, "z": "three"], operationName: "B")
        let error = result["errors"]?[0]
        #expect(error?["extensions"]?["code"] == "BAD_USER_INPUT")
        #expect(Self.location(error) == [4, 3])
    }
}
