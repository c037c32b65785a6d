import Testing

@testable import CarnetGraphQL

/// The response's size is bounded as it is written, whatever its records hold: the node limit counts records, and
/// a few aliases of a page of contacts with large images once made a 311-byte query hold 868 MB.
@Suite("Response size limit")
struct ResponseSizeTests {
    static let note = String(repeating: "n", count: 1_000)

    static func fixture(limit: Int) async throws -> GraphQLFixture {
        var limits = GraphQLLimits()
        limits.maxResponseBytes = limit
        let fixture = try GraphQLFixture(limits: limits)
        let operations = (0..<30).map { "{addContact: {givenName: \"P\($0)\", note: \"\(note)\"}}" }
        _ = try await fixture.data(
            "mutation { save(request: {operations: [\(operations.joined(separator: ", "))]}) { revision } }")
        return fixture
    }

    @Test("A page past the limit is null with MAX_RESPONSE_BYTES_EXCEEDED; one within it is answered whole")
    func pagePastTheLimit() async throws {
        let fixture = try await Self.fixture(limit: 20_000)
        let over = try await fixture.run("{ contacts(first: 30) { nodes { id note } } }")
        #expect(over.errorCodes == ["MAX_RESPONSE_BYTES_EXCEEDED"], "\(over.json.prefix(300))")
        // `contacts` is non-null: its null reaches `data`.
        #expect(over["data"] == .null)
        #expect(over.json.utf8.count < 20_000, "what the page had written was dropped")

        let within = try await fixture.data("{ contacts(first: 15) { nodes { id note } } }")
        #expect(within["contacts"]?["nodes"]?.arrayValue?.count == 15)
    }

    @Test("Aliases share one limit: the response stops there, whatever the number of aliases")
    func aliasesShareTheLimit() async throws {
        let fixture = try await Self.fixture(limit: 20_000)
        let aliases = (0..<10).map { "a\($0): contacts(first: 15) { nodes { note } }" }.joined(separator: " ")
        let response = try await fixture.run("{ \(aliases) }")
        #expect(response.errorCodes == ["MAX_RESPONSE_BYTES_EXCEEDED"], "\(response.json.prefix(300))")
        #expect(response["data"] == .null)
        #expect(response.json.utf8.count < 2_000, "\(response.json.utf8.count)")
    }

    @Test("A record is written whole even past the limit; the next field with a selection is null")
    func nextFieldAfterTheLimit() async throws {
        let fixture = try await Self.fixture(limit: 500)
        let id = try #require(
            try await fixture.data("{ contacts(first: 1) { nodes { id } } }")["contacts"]?["nodes"]?[0]?["id"]?
                .stringValue)
        // `contact` is nullable: its failure stays there.
        let response = try await fixture.run(
            "{ a: contacts(first: 1) { nodes { note } } b: contact(id: \"\(id)\") { note } c: __typename }")
        #expect(response["data"]?["a"]?["nodes"]?[0]?["note"]?.stringValue == Self.note)
        #expect(response["data"]?["b"] == .null)
        #expect(response["data"]?["c"]?.stringValue == "Query")
        #expect(response.errorCodes == ["MAX_RESPONSE_BYTES_EXCEEDED"])
        #expect(response["errors"]?[0]?["path"]?[0]?.stringValue == "b")
    }
}
