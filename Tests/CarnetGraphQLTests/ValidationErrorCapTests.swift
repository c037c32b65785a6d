import Testing

@testable import CarnetGraphQL

/// Documents of many validation errors: GraphQLSwift locates each error with a scan of the whole text, so their
/// cost grew with their number times the text's length (14,000 unknown fields in 87 KB took 10 s of a core).
@Suite("Validation errors of long documents")
struct ValidationErrorCapTests {
    static func errors(_ response: JSONValue) -> [JSONValue] { response["errors"]?.arrayValue ?? [] }

    static func unknownFields(_ count: Int) -> String {
        "{ " + (0..<count).map { "z\($0)" }.joined(separator: " ") + " }"
    }

    @Test("Many errors: the first 100 are reported, then one that counts them all")
    func capped() async throws {
        let fixture = try GraphQLFixture()
        // Long (validated without locations first) and short (validated with them).
        for count in [3_000, 150] {
            let errors = Self.errors(try await fixture.run(Self.unknownFields(count)))
            #expect(errors.count == 101, "\(count) unknown fields")
            #expect(errors.allSatisfy { $0["extensions"]?["code"]?.stringValue == "GRAPHQL_VALIDATION_FAILED" })
            #expect(errors.first?["message"]?.stringValue?.contains("\"z0\"") == true)
            #expect(errors.last?["message"]?.stringValue?.contains("more than 100 validation errors") == true)
        }
        // The short document's errors, cheap to locate, keep their positions.
        let short = Self.errors(try await fixture.run(Self.unknownFields(150)))
        #expect(short.dropFirst().first?["locations"]?[0]?["column"]?.intValue == 6)
    }

    /// 450 same-named root fields with differing arguments (12 KB) made 100,000 conflict errors, twice: the first
    /// pass's stopped at the comparison limit, so the refusal held one error, and the pass that locates errors
    /// made them all again, each a scan of the text (15 s of CPU a request; an outside fuzzer's find).
    @Test("Conflicting same-named fields: the merge check stops at the errors a refusal lists")
    func manyConflicts() async throws {
        let fixture = try GraphQLFixture()
        for count in [450, 40] {
            let document = "{ " + (0..<count).map { "contact(id: \"c\($0)\") { id }" }.joined(separator: " ") + " }"
            let errors = Self.errors(try await fixture.run(document))
            let conflicts = errors.filter { $0["message"]?.stringValue?.contains("\"contact\" conflict") == true }
            #expect(conflicts.count == 100, "\(count) fields")
            #expect(errors.last?["message"]?.stringValue?.contains("more than 100 validation errors") == true)
            #expect(!errors.contains { $0["extensions"]?["code"] == "MAX_FIELD_MERGE_CHECKS_EXCEEDED" })
        }
    }

    /// One error can name thousands of nodes: a repeated argument's every occurrence. 4,900 `first:1` in 39 KB took
    /// 2–3 s of a core to locate, one scan of the text each, and slowed every other client (an outside fuzzer's
    /// find); a short one keeps its positions.
    @Test("An argument repeated thousands of times is refused without its thousands of positions")
    func repeatedArgument() async throws {
        let fixture = try GraphQLFixture()
        for count in [4_900, 3] {
            let document =
                "{ contacts(" + String(repeating: "first: 1 ", count: count) + ") { totalCount } }"
            let errors = Self.errors(try await fixture.run(document))
            #expect(errors.count == 1, "\(count) arguments")
            #expect(errors.first?["message"]?.stringValue?.contains("only one argument named \"first\"") == true)
            #expect(errors.first?["extensions"]?["code"] == "GRAPHQL_VALIDATION_FAILED")
            #expect(errors.first?["locations"]?.arrayValue?.count == (count == 3 ? 3 : nil), "\(count) arguments")
        }
    }

    @Test("A long document with few errors has them located, and a long valid one runs")
    func longDocuments() async throws {
        let fixture = try GraphQLFixture()
        let padding = "# " + String(repeating: "x", count: 5_000) + "\n"
        let few = Self.errors(try await fixture.run("{ __typename\n" + padding + "  z1 z2 }"))
        #expect(few.count == 2)
        #expect(few.first?["locations"]?[0]?["line"]?.intValue == 3)
        #expect(few.last?["locations"]?[0]?["column"]?.intValue == 6)

        let valid = try await fixture.data("{ __typename\n" + padding + " contacts(first: 1) { totalCount } }")
        #expect(valid["contacts"]?["totalCount"]?.intValue == 0)

        // Same-named fields that cannot merge are told apart without positions in the first pass.
        let conflict = Self.errors(
            try await fixture.run("{ contacts { nodes { a: givenName\n" + padding + " a: familyName } } }"))
        #expect(conflict.count == 1)
        #expect(conflict.first?["message"]?.stringValue?.contains("\"a\" conflict") == true)
        #expect(conflict.first?["locations"]?.arrayValue?.count == 2)
        let merging = try await fixture.run("{ contacts { nodes { a: givenName\n" + padding + " a: givenName } } }")
        #expect(Self.errors(merging).isEmpty)
    }
}
