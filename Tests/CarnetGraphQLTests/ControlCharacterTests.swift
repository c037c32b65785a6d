import CarnetTestSupport
import GraphQL
import Testing

@testable import CarnetGraphQL

/// Raw control characters (U+0000–U+001F but tab and line breaks), which the 2021 spec allows in strings, block
/// strings and comments (graphql-js 16 and graphql-core 3.2 accept them), and GraphQLSwift's 2018 grammar refused
/// with a syntax error.
@Suite("Raw control characters and block strings in documents")
struct ControlCharacterTests {
    /// The value the library parses for the first argument of the document's first field, after the rewrite.
    static func argument(_ document: String) throws -> String? {
        let bytes = Array(document.utf8)
        let text = try StringEscapes.rewrite(bytes)?.text ?? document
        let parsed = try GraphQL.parse(source: Source(body: text))
        let operation = try #require(parsed.definitions.first as? OperationDefinition)
        let field = try #require(operation.selectionSet.selections.first as? Field)
        return (field.arguments.first?.value as? StringValue)?.value
    }

    @Test("In a string, a block string and a comment they are text, and errors after them keep their position")
    func accepted() async throws {
        #expect(try Self.argument("{ a(b: \"x\u{1}y\u{1F}\u{0}z\") }") == "x\u{1}y\u{1F}\u{0}z")
        #expect(try Self.argument("{ a(b: \"\"\"\n    x\u{7}\n      \"y\\\"\"\"\n  \"\"\") }") == "x\u{7}\n  \"y\"\"\"")
        #expect(try Self.argument("# x\u{1}\u{2}\n{ a(b: \"c\") }") == "c")
        let fixture = try GraphQLFixture()
        let data = try await fixture.data("{ contacts(filter: {name: \"a\u{1}\"}) { totalCount } # \u{2}\n }")
        #expect(data["contacts"]?["totalCount"] == 0)
        let block = try await fixture.data("{ contacts(filter: {name: \"\"\"a\u{1}\"\"\"}) { totalCount } }")
        #expect(block["contacts"]?["totalCount"] == 0)
        // Each raw character is one column, as the client wrote it, though the library read a six-byte escape.
        let found = try await fixture.run("{ contacts(filter: {name: \"\u{1}\u{1}\"}) { nope } }")["errors"]
        #expect(StringAndPositionTests.location(found?[0]) == [1, 36])
        let afterBlock = try await fixture.run("{ contacts(filter: {name: \"\"\"\u{1}\n\u{1}\"\"\"}) { nope } }")[
            "errors"]
        #expect(StringAndPositionTests.location(afterBlock?[0]) == [2, 10])
    }

    @Test("Outside strings and comments they are still syntax errors")
    func refusedElsewhere() async throws {
        let fixture = try GraphQLFixture()
        let found = try await fixture.run("{ __typename \u{1} }")["errors"]
        #expect(found?[0]?["extensions"]?["code"] == "GRAPHQL_PARSE_FAILED")
        #expect(StringAndPositionTests.location(found?[0]) == [1, 14])
    }

    /// The spec's BlockStringValue written over Characters (a CRLF is one), to check the byte-wise one against.
    static func specValue(_ raw: String) -> String {
        let text = raw.replacingOccurrences(of: "\\\"\"\"", with: "\"\"\"")
        var lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            .map(String.init)
        let isBlank = { (line: String) in line.allSatisfy { $0 == " " || $0 == "\t" } }
        let indents = lines.dropFirst().filter { !isBlank($0) }.map { $0.prefix { $0 == " " || $0 == "\t" }.count }
        if let common = indents.min() {
            lines = [lines[0]] + lines.dropFirst().map { String($0.dropFirst(common)) }
        }
        while lines.first.map(isBlank) == true { lines.removeFirst() }
        while lines.last.map(isBlank) == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    @Test(
        "Block strings have the spec's value, where the library split a CRLF in two and took no indentation for 0",
        arguments: [
            ("\n    Hello,\n      World!\n\n    Yours,\n      GraphQL.\n  ", "Hello,\n  World!\n\nYours,\n  GraphQL."),
            ("\nDear Anna,\n  thanks\n", "Dear Anna,\n  thanks"), ("\nx\n  y", "x\n  y"), ("a\r\nb", "a\nb"),
            ("    Hello,\r\n      World!\r\n", "    Hello,\nWorld!"), ("a\\\"\"\"b", "a\"\"\"b"), ("", ""),
        ])
    func blockStrings(raw: String, value: String) throws {
        #expect(try Self.argument("{ f(b: \"\"\"\(raw)\"\"\") }") == value)
        #expect(Self.specValue(raw) == value)
    }

    /// Random block strings: lines of random indentation (spaces, tabs), blank lines, CRLFs, quotes, escaped triple
    /// quotes, letters and control characters.
    @Test("A block string's value is the spec's, on generated block strings")
    func generatedBlockStrings() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededRandom(seed: seed)
        let pieces = [
            " ", "  ", "\t", "a", "bc", "\"", "\\\"\"\"", "\n", "\r\n", "\r", "é", "\\", "x y", "\u{1}", "\u{1F}",
        ]
        var checked = 0
        for round in 0..<2_000 {
            var raw = ""
            for _ in 0..<random.int(0...12) { raw += random.pick(pieces)! }
            // Three quotes in a row, or a quote or backslash at the end, end the block string early: not one.
            if raw.contains("\"\"\"\"") || raw.replacingOccurrences(of: "\\\"\"\"", with: "").contains("\"\"\"")
                || raw.hasSuffix("\"") || raw.hasSuffix("\\")
            {
                continue
            }
            checked += 1
            let expected = Self.specValue(raw)
            #expect(
                String(decoding: StringEscapes.blockStringValue(Array(raw.utf8)[...]), as: UTF8.self) == expected,
                "seed \(seed) round \(round): \(raw.debugDescription)")
            #expect(
                try Self.argument("{ f(b: \"\"\"\(raw)\"\"\") }") == expected,
                "seed \(seed) round \(round): \(raw.debugDescription)")
        }
        #expect(checked > 500, "seed \(seed)")
    }
}
