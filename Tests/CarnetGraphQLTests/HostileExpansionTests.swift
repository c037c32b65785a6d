import Foundation
import Testing

@testable import CarnetGraphQL

/// Shapes that passed the text scanner's limits yet took a recursive stage thousands of levels deep: an escape
/// the rewriter and the lexer read differently, runs of comments, and chains of fragments each nested near the
/// limit. Each must get a coded error (or a plain answer), and the process must live.
@Suite("Hostile documents past the scanner")
struct HostileExpansionTests {
    @Test("A block string with a lone escaped quote does not put the escape rewriter out of step with the lexer")
    func blockStringEscape() async throws {
        let fixture = try GraphQLFixture()
        // The lexer reads a block string, then a comment; a rewriter that took `\"` for the block string's escape
        // would end the block at the comment's `"""` and turn the third line's `\u{5B}` into 3,000 raw `[`.
        let brackets = String(repeating: #"\u{5B}"#, count: 2_900) + String(repeating: #"\u{5D}"#, count: 2_900)
        let query = "{a(b:\"\"\"\\\"x\"\"\"\n# \"\"\"\"\\\nc:" + brackets + ")}"
        let response = try await fixture.run(query)
        #expect(!response.errorCodes.isEmpty)
        #expect(!response.errorCodes.contains("INTERNAL_SERVER_ERROR"))
        // A backslash before a line break does not carry a string onto the next line either (GraphQLSwift's lexer
        // already stops there; this keeps the scanner and the rewriter in step with it).
        let carried = try await fixture.run("{ a(b: \"x\\\n" + String(repeating: "[", count: 3_000) + "\") }")
        #expect(!carried.errorCodes.isEmpty)
        #expect(try await fixture.data("{ __typename }")["__typename"] == .string("Query"))
    }

    @Test("Comments count as tokens: a document of 50,000 comment lines is refused with TOO_MANY_TOKENS")
    func comments() async throws {
        let fixture = try GraphQLFixture()
        let response = try await fixture.run(String(repeating: "#\n", count: 49_990) + "{ __typename }")
        #expect(response.errorCodes == ["TOO_MANY_TOKENS"])
        let few = try await fixture.run("# a comment\n{ __typename } # another\n")
        #expect(few["data"]?["__typename"] == .string("Query"))
    }

    @Test("Fragments chained past the nesting limit when expanded are refused with MAX_NESTING_EXCEEDED")
    func fragmentChain() async throws {
        let fixture = try GraphQLFixture()
        // Each fragment is within the text's limits (about 60 levels); the chain expands to thousands.
        var fragments = ""
        for index in 0..<76 {
            let next = index == 75 ? "id" : "...F\(index + 1)"
            fragments +=
                "fragment F\(index) on Contact { "
                + HostileDocumentTests.nested("groups { members { nodes { ", next, " } } }", 20) + " }\n"
        }
        let query = "{ contacts { nodes { ...F0 } } }\n" + fragments
        let response = try await fixture.run(query)
        #expect(response.errorCodes == ["MAX_NESTING_EXCEEDED"])
        // A spread chain nested only by inline fragments, no fields: as deep when expanded.
        var inline = ""
        for index in 0..<150 {
            let next = index == 149 ? "__typename" : "...G\(index + 1)"
            inline +=
                "fragment G\(index) on Query { "
                + HostileDocumentTests.nested("... on Query { ", next, " }", 10) + " }\n"
        }
        #expect((try await fixture.run("{ ...G0 }\n" + inline)).errorCodes == ["MAX_NESTING_EXCEEDED"])
        // Fragments within the limit pass (`IntrospectionTests` send the standard introspection query, fragments and
        // all, through the same check).
        let shallow = try await fixture.run(
            "{ ...A }\nfragment A on Query { contacts { nodes { ...B } } }\nfragment B on Contact { groups { id } }")
        #expect(shallow.errorCodes.isEmpty)
    }
}
