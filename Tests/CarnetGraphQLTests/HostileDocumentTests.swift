import CarnetStore
import Foundation
import Synchronization
import Testing

@testable import CarnetGraphQL

/// Documents and variables built to crash or stall a GraphQL server. Each must be answered with a coded error,
/// quickly, and the refused ones before GraphQLSwift's recursive parser sees them. The time bound only catches a
/// hang (10 s: the whole suite shares 2 loaded cores, where even a refusal taking 1 ms in isolation has been seen
/// to take 2 s); what proves the shape is refused early is the parser count staying put.
@Suite("Hostile documents")
struct HostileDocumentTests {
    /// A hang bound, not a speed goal: each document is refused in milliseconds alone, but the whole suite shares
    /// two loaded cores; the super-linear paths these guard against took minutes.
    static let hangBound = Duration.seconds(60)

    struct Outcome {
        var codes: [String]
        var response: JSONValue
        var parsed: Bool
        var elapsed: Duration
    }

    func run(_ fixture: GraphQLFixture, _ query: String, _ variables: [String: JSONValue] = [:]) async throws -> Outcome
    {
        let preparer = fixture.service.core.preparer
        let before = preparer.parsedCount.load(ordering: .relaxed)
        let start = ContinuousClock.now
        let response = try await fixture.run(query, variables)
        let elapsed = ContinuousClock.now - start
        let codes = (response["errors"]?.arrayValue ?? []).compactMap { $0["extensions"]?["code"]?.stringValue }
        return Outcome(
            codes: codes, response: response, parsed: preparer.parsedCount.load(ordering: .relaxed) != before,
            elapsed: elapsed)
    }

    static func nested(_ open: String, _ inner: String, _ close: String, _ depth: Int) -> String {
        String(repeating: open, count: depth) + inner + String(repeating: close, count: depth)
    }

    /// The shapes of issue 12, each far past the limits (thousands deep where that crashed the server).
    static let deepShapes: [(name: String, query: String)] = [
        ("inline fragments", "{ " + nested("... on Query { ", "__typename", " }", 3_000) + " }"),
        ("list literal", "{ contacts(filter: {ids: " + nested("[", #""a""#, "]", 5_000) + "}) { totalCount } }"),
        ("selections", "{ contacts { nodes { " + nested("groups { members { nodes: ", "id", " } }", 1_500) + " } } }"),
        ("input objects", "{ contacts(filter: {name: " + nested("{name: ", #""a""#, "}", 28) + "}) { totalCount } }"),
        ("list literal 60", "{ contacts(filter: {ids: " + nested("[", #""a""#, "]", 60) + "}) { totalCount } }"),
        (
            "variable default",
            "query($v: [ID] = " + nested("[", #""a""#, "]", 100) + ") { contacts(filter: {ids: $v}) { totalCount } }"
        ),
        ("variable type", "query($v: " + nested("[", "ID", "]", 2_000) + ") { __typename }"),
        ("directive argument", "{ __typename @include(if: " + nested("{a: ", "true", "}", 2_000) + ") }"),
    ]

    @Test(
        "Deeply nested documents are refused with MAX_NESTING_EXCEEDED before parsing, at the bracket past the limit",
        arguments: deepShapes.map(\.name))
    func deepNesting(name: String) async throws {
        let fixture = try GraphQLFixture()
        let query = try #require(Self.deepShapes.first { $0.name == name }).query
        let outcome = try await run(fixture, query)
        #expect(outcome.codes == ["MAX_NESTING_EXCEEDED"])
        #expect(outcome.response["data"] == nil)
        #expect(!outcome.parsed, "refused before GraphQLSwift's parser")
        #expect(outcome.elapsed < Self.hangBound)
        #expect(outcome.response["errors"]?[0]?["locations"]?[0]?["line"] == 1)
        // The service goes on serving.
        #expect(try await fixture.data("{ __typename }")["__typename"] == "Query")
    }

    @Test("The deepest value Carnet's schema accepts is the default value nesting limit, and it is accepted")
    func deepestValidValue() async throws {
        #expect(SchemaIndex.shared.deepestArgumentNesting == GraphQLLimits().maxValueNesting)
        let fixture = try GraphQLFixture()
        let save =
            #"mutation { save(request: {operations: [{addContact: {id: "d-1", givenName: "Deep", postalAddresses: [{label: "home", value: {city: "Lyon"}}]}}]}) { revision } }"#
        let outcome = try await run(fixture, save)
        #expect(outcome.codes.isEmpty, "\(outcome.response)")
        // One level deeper is refused on the text, although the parser would have accepted it.
        let deeper = save.replacingOccurrences(of: #"{city: "Lyon"}"#, with: #"{city: ["Lyon"]}"#)
        #expect(try await run(fixture, deeper).codes == ["MAX_NESTING_EXCEEDED"])
    }

    @Test("Nesting within the limits but invalid is a quick validation error, not an exponential message")
    func invalidWithinLimits() async throws {
        let fixture = try GraphQLFixture()
        for query in [
            "{ contacts(filter: {name: " + Self.nested("{name: ", #""a""#, "}", 6) + "}) { totalCount } }",
            "{ contacts(filter: {ids: " + Self.nested("[", #""a""#, "]", 6) + "}) { totalCount } }",
            "query($v: [ID] = " + Self.nested("[", #""a""#, "]", 7)
                + ") { contacts(filter: {ids: $v}) { totalCount } }",
        ] {
            let outcome = try await run(fixture, query)
            #expect(
                !outcome.codes.isEmpty && outcome.codes.allSatisfy { $0 == "GRAPHQL_VALIDATION_FAILED" },
                "\(outcome.response)")
            #expect(outcome.elapsed < Self.hangBound)
        }
    }

    @Test("Selections nested up to the limit parse; depth is then the depth limit's to refuse")
    func selectionsAtTheLimit() async throws {
        let fixture = try GraphQLFixture()
        let query = "{ " + Self.nested("... on Query { ", "__typename", " }", 63) + " }"
        #expect(try await run(fixture, query).codes.isEmpty)
        let deep = "{ contacts { nodes { " + Self.nested("groups { members { nodes: ", "id", " } }", 20) + " } } }"
        #expect(try await run(fixture, deep).codes == ["MAX_DEPTH_EXCEEDED"])
    }

    @Test(
        "A chain of fragments each spreading the next validates in time linear in its length; long ones are refused",
        arguments: [(400, [String]()), (1_000, ["MAX_FRAGMENT_SPREADS_EXCEEDED"]), (1_800, ["TOO_MANY_TOKENS"])])
    func fragmentChain(length: Int, codes: [String]) async throws {
        let fixture = try GraphQLFixture()
        var query = "{ contacts(first: 1) { nodes { ...F0 } } }"
        for index in 0..<length { query += " fragment F\(index) on Contact { id ...F\(index + 1) }" }
        query += " fragment F\(length) on Contact { id }"
        let outcome = try await run(fixture, query)
        #expect(outcome.codes == codes, "\(outcome.response)")
        // Before the fix (debug build): 400 fragments took 2.8 s, every validation rule being linear now 0.1 s.
        #expect(outcome.elapsed < Self.hangBound)
    }

    @Test("Fragments that spread each other many times over are refused with MAX_FRAGMENT_SPREADS_EXCEEDED")
    func fragmentFanOut() async throws {
        let fixture = try GraphQLFixture()
        // Each fragment spreads the next three times: 3^12 expansions from 13 short definitions.
        var query = "{ contacts(first: 1) { nodes { ...F0 } } }"
        for index in 0..<12 {
            query += " fragment F\(index) on Contact { id ...F\(index + 1) ...F\(index + 1) ...F\(index + 1) }"
        }
        query += " fragment F12 on Contact { id }"
        let outcome = try await run(fixture, query)
        #expect(outcome.codes.contains("MAX_FRAGMENT_SPREADS_EXCEEDED"), "\(outcome.response)")
        #expect(outcome.elapsed < Self.hangBound)
    }

    @Test("Deeply nested JSON in variables or a body is refused with MAX_NESTING_EXCEEDED without recursing")
    func deepJSON() async throws {
        let deep = Self.nested("[", "1", "]", 100_000)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(deep, maxDepth: 64) }
        do {
            _ = try JSONParser.parse(#"{"variables":"# + deep + "}", maxDepth: 64)
        } catch let failure as JSONParser.Failure {
            #expect(failure.isTooDeep)
        }
        #expect(throws: GraphQLRequestError.jsonTooDeep("variables", 64)) {
            try GraphQLRequestBody(queryItems: ["query": "{ __typename }", "variables": #"{"v":"# + deep + "}"])
        }
        // Within the JSON limit, a variable nested deeper than its type is a quick coercion error.
        let fixture = try GraphQLFixture()
        let value = try JSONParser.parse(Self.nested("[", #""a""#, "]", 60))
        let outcome = try await run(
            fixture, "query($v: [ID!]) { contacts(filter: {ids: $v}) { totalCount } }", ["v": value])
        #expect(outcome.codes == ["BAD_USER_INPUT"])
        #expect(outcome.elapsed < Self.hangBound)
    }

    @Test("Thousands of same-named fields with selections stop the field-merging check at its limit, with its code")
    func fieldMergeChecks() async throws {
        let fixture = try GraphQLFixture()
        let query = "{ contacts(first: 1) { nodes { " + String(repeating: "groups { id } ", count: 3_000) + "} } }"
        let outcome = try await run(fixture, query)
        #expect(outcome.codes == ["MAX_FIELD_MERGE_CHECKS_EXCEEDED"], "\(outcome.response)")
        #expect(outcome.elapsed < Self.hangBound)
        // A few are compared, and merge.
        let few = "{ contacts(first: 1) { nodes { " + String(repeating: "groups { id } ", count: 20) + "} } }"
        #expect(try await run(fixture, few).codes.isEmpty)
    }

    @Test("A save that runs past the time budget stops before its next operation and writes nothing")
    func saveBudget() async throws {
        var limits = GraphQLLimits()
        limits.maxExecutionTime = .nanoseconds(1)
        let fixture = try GraphQLFixture(limits: limits)
        let response = try await fixture.run(
            #"mutation { save(request: {operations: [{addContact: {givenName: "A"}}, {addContact: {givenName: "B"}}]}) "#
                + "{ revision } }")
        let errors = response["errors"]?.arrayValue ?? []
        #expect(errors.compactMap { $0["extensions"]?["code"]?.stringValue } == ["MAX_EXECUTION_TIME_EXCEEDED"])
        #expect(errors.first?["extensions"]?["operationIndex"] == .int(1))
        #expect(try await fixture.store.contactCount() == 0)
    }

    @Test("Execution stops at its time budget, and when the client has gone away")
    func executionBudget() async throws {
        var limits = GraphQLLimits()
        limits.maxExecutionTime = .zero
        let expired = try GraphQLFixture(limits: limits)
        let response = try await expired.run("{ defaultContainer { id } containers { id } }")
        let codes = (response["errors"]?.arrayValue ?? []).compactMap { $0["extensions"]?["code"]?.stringValue }
        #expect(codes == ["MAX_EXECUTION_TIME_EXCEEDED"], "a non-null root field fails, and nothing after it runs")
        #expect(response["data"] == .null)

        let fixture = try GraphQLFixture()
        var context = GraphQLRequestContext()
        context.isAbandoned = { true }
        let abandoned = try await fixture.run("{ containers { id } }", context: context)
        #expect(abandoned["data"] == .null)
        #expect(try await fixture.data("{ containers { id } }")["containers"]?.arrayValue?.count == 1)
    }

    /// An outside tester's find: a thousand vCards of tens of values each were written seconds past the budget, and
    /// on after the client had left, since the budget was checked only where the executor waits.
    @Test(
        "Each vCard written is checked against the budget and the client's presence; writing stops at the first refusal"
    )
    func vCardsStopAtTheBudget() async throws {
        let fixture = try GraphQLFixture()
        var request = SaveRequest(transactionAuthor: "t")
        for number in 0..<60 {
            var contact = Contact()
            contact.givenName = "P\(number)"
            request.add(contact)
        }
        try await fixture.store.execute(request)
        let query = "{ contacts(first: 100) { nodes { vCard } } }"
        let checks = Atomic<Int>(0)
        var counting = GraphQLRequestContext()
        counting.isAbandoned = {
            checks.add(1, ordering: .relaxed)
            return false
        }
        let whole = try await fixture.run(query, context: counting)
        #expect(whole["data"]?["contacts"]?["nodes"]?.arrayValue?.count == 60)
        let total = checks.load(ordering: .relaxed)
        #expect(total >= 60, "one check per card at least: \(total)")

        // The client leaves after the tenth card: the eleventh is not written, nor anything after it.
        let before = total - 60
        let calls = Atomic<Int>(0)
        var leaving = GraphQLRequestContext()
        leaving.isAbandoned = { calls.add(1, ordering: .relaxed).newValue > before + 10 }
        let cut = try await fixture.run(query, context: leaving)
        #expect(cut["data"]?["contacts"] == .null || cut["data"] == .null, "\(cut.json.prefix(300))")
        #expect(calls.load(ordering: .relaxed) == before + 11, "writing went on after the client left")
    }
}
