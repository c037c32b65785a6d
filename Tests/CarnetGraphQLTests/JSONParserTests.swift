import CarnetGraphQL
import Testing

@Suite("JSON request bodies")
struct JSONParserTests {
    @Test("Strings: plain ASCII, escapes, surrogate pairs and raw UTF-8 decode to the same text")
    func strings() throws {
        #expect(try JSONParser.parse(#""{ __typename }""#) == .string("{ __typename }"))
        #expect(try JSONParser.parse(#""a\"b\\c\/d\n\t""#) == .string("a\"b\\c/d\n\t"))
        #expect(try JSONParser.parse(#""M\u00fcller \ud83d\ude00""#) == .string("Müller 😀"))
        // Raw bytes of "Müller 😀", not escaped: validated, not just copied.
        #expect(try JSONParser.parse(Array("\"Müller 😀\"".utf8)) == .string("Müller 😀"))
        #expect(try JSONParser.parse(#""""#) == .string(""))
    }

    @Test(
        "Invalid strings are refused: bad or cut UTF-8, surrogates, control characters, bad escapes",
        arguments: [
            [0x22, 0x61, 0xFF, 0x22],  // a byte that is never UTF-8
            [0x22, 0xC3, 0x22],  // a sequence cut short
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // an encoded surrogate
            [0x22, 0x61, 0x0A, 0x22],  // a raw control character
            [0x22, 0x61, 0x62],  // unterminated
            Array(#""\ud83d""#.utf8),  // a lone surrogate escape
            Array(#""\x""#.utf8),  // an unknown escape
        ] as [[UInt8]])
    func invalidStrings(bytes: [UInt8]) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(bytes) }
    }

    @Test(
        "Numbers beyond a 64-bit float are refused; large integers and tiny fractions are read",
        arguments: [
            "1e999999", "-1e400", "[1, 2e308]",
        ])
    func numbersOutOfRange(text: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(text) }
    }

    @Test("Numbers within range keep their value")
    func numbersInRange() throws {
        #expect(try JSONParser.parse("1e308") == .double(1e308))
        #expect(try JSONParser.parse("1e-400") == .double(0))
        #expect(try JSONParser.parse("99999999999999999999") == .double(1e20))
        #expect(try JSONParser.parse("-42") == .int(-42))
    }

    @Test("Objects of any size keep every member; a key repeated in one object is refused (I-JSON)")
    func objects() throws {
        let members = (0..<40).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ")
        let object = try #require(try JSONParser.parse("{\(members)}").objectValue)
        #expect(object.count == 40)
        #expect(object["k39"] == .int(39))
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(#"{"a": 1, "a": 2}"#) }
        #expect(throws: JSONParser.Failure.self) {
            try JSONParser.parse(#"{"query": "{ __typename }", "v": {"x": 1, "x": 1}, "query": "mutation"}"#)
        }
        // The same key in different objects is no repetition.
        #expect(try JSONParser.parse(#"{"a": {"a": 1}}"#) == .object(["a": .object(["a": .int(1)])]))
        #expect(
            try JSONParser.parse(#"{"query": "{ __typename }", "variables": {"id": "x"}}"#)
                == .object(["query": .string("{ __typename }"), "variables": .object(["id": .string("x")])]))
    }
}
