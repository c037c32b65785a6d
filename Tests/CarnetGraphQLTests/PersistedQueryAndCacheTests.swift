import Crypto
import Foundation
import Testing

@testable import CarnetGraphQL

@Suite("Persisted queries and the document cache")
struct PersistedQueryAndCacheTests {
    static func sha256(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    func run(_ fixture: GraphQLFixture, query: String?, hash: String, version: Int = 1) async throws -> JSONValue {
        let extensions: [String: JSONValue] = [
            "persistedQuery": .object(["version": .int(version), "sha256Hash": .string(hash)])
        ]
        let response = await fixture.service.execute(GraphQLRequestBody(query: query, extensions: extensions))
        return try JSONParser.parse(response.body)
    }

    @Test("Automatic persisted queries: unknown hash, registration, hit, mismatch, version")
    func automaticPersistedQueries() async throws {
        let fixture = try GraphQLFixture()
        let query = "{ defaultContainer { name } }"
        let hash = Self.sha256(query)
        #expect(hash == "\(Self.sha256(query))" && hash.count == 64)
        let unknown = try await run(fixture, query: nil, hash: hash)
        #expect(unknown["errors"]?[0]?["extensions"]?["code"] == "PERSISTED_QUERY_NOT_FOUND")
        let registered = try await run(fixture, query: query, hash: hash)
        #expect(registered["data"]?["defaultContainer"]?["name"] == "Local")
        let hit = try await run(fixture, query: nil, hash: hash)
        #expect(hit["data"]?["defaultContainer"]?["name"] == "Local")
        let mismatch = try await run(fixture, query: "{ containers { name } }", hash: hash)
        #expect(mismatch["errors"]?[0]?["extensions"]?["code"] == "PERSISTED_QUERY_HASH_MISMATCH")
        let version = try await run(fixture, query: nil, hash: hash, version: 2)
        #expect(version["errors"]?[0]?["extensions"]?["code"] == "PERSISTED_QUERY_VERSION_NOT_SUPPORTED")
        let malformed = try await run(fixture, query: nil, hash: "XYZ")
        #expect(malformed["errors"]?[0]?["extensions"]?["code"] == "BAD_REQUEST")
        // `persistedQuery: null` is no persisted query: the text runs as sent.
        let none = await fixture.service.execute(
            GraphQLRequestBody(query: query, extensions: ["persistedQuery": .null]))
        #expect(try JSONParser.parse(none.body)["data"]?["defaultContainer"]?["name"] == "Local")
        // Not an object at all: a bad request, not a version of it (an outside tester's find).
        let notObject = await fixture.service.execute(
            GraphQLRequestBody(query: query, extensions: ["persistedQuery": .string("x")]))
        #expect(try JSONParser.parse(notObject.body)["errors"]?[0]?["extensions"]?["code"] == "BAD_REQUEST")
    }

    @Test("The persisted query store is bounded")
    func boundedStore() async throws {
        var limits = GraphQLLimits()
        limits.persistedQueryCacheSize = 2
        let fixture = try GraphQLFixture(limits: limits)
        let queries = ["{ a: __typename }", "{ b: __typename }", "{ c: __typename }"]
        for query in queries { _ = try await run(fixture, query: query, hash: Self.sha256(query)) }
        #expect(fixture.service.core.persistedQueries.count == 2)
        let evicted = try await run(fixture, query: nil, hash: Self.sha256(queries[0]))
        #expect(evicted["errors"]?[0]?["extensions"]?["code"] == "PERSISTED_QUERY_NOT_FOUND")
    }

    /// 10,000 registered 95 KB queries held 1.2 GB, kept for good (an outside fuzzer): the caches held a count of
    /// entries, however long. Each now holds a number of bytes of text too.
    @Test("Persisted queries, documents and introspection answers are bounded by their bytes too")
    func boundedBytes() async throws {
        var limits = GraphQLLimits()
        limits.persistedQueryCacheBytes = 10_000
        limits.documentCacheBytes = 10_000
        limits.introspectionCacheBytes = 20_000
        let fixture = try GraphQLFixture(limits: limits)
        let padding = "# " + String(repeating: "x", count: 1_000) + "\n"
        let queries = (0..<20).map { "\(padding){ q\($0): __typename }" }
        for query in queries {
            let registered = try await run(fixture, query: query, hash: Self.sha256(query))
            #expect(registered["data"] != nil && registered["data"] != .null)
        }
        let core = fixture.service.core
        #expect(core.persistedQueries.cost <= 10_000 && core.persistedQueries.count == 9)
        #expect(core.preparer.cache.cost <= 10_000 && core.preparer.cache.count == 9)
        // The oldest went, the newest stay.
        let evicted = try await run(fixture, query: nil, hash: Self.sha256(queries[0]))
        #expect(evicted["errors"]?[0]?["extensions"]?["code"] == "PERSISTED_QUERY_NOT_FOUND")
        let kept = try await run(fixture, query: nil, hash: Self.sha256(queries[19]))
        #expect(kept["data"]?["q19"] == "Query")
        // One text over the budget alone is answered, not kept.
        let long = String(repeating: " ", count: 10_001) + "{ long: __typename }"
        #expect(try await run(fixture, query: long, hash: Self.sha256(long))["data"]?["long"] == "Query")
        #expect(core.persistedQueries.cost <= 10_000)
        // Introspection answers: deep ones, of a few kilobytes each, past the budget.
        for depth in 1...6 {
            let ofType = String(repeating: "ofType { name kind ", count: depth) + String(repeating: "} ", count: depth)
            _ = try await fixture.data("{ __schema { types { name fields { name type { \(ofType) } } } } }")
        }
        #expect(core.introspectionCache.cost <= 20_000)
        _ = try await fixture.data(#"{ __type(name: "Group") { name } }"#)
        #expect(core.introspectionCache.count >= 1 && core.introspectionCache.cost <= 20_000)
    }

    @Test("A cached document skips parsing and validation; the cache is bounded")
    func documentCache() async throws {
        var limits = GraphQLLimits()
        limits.documentCacheSize = 3
        let fixture = try GraphQLFixture(limits: limits)
        let preparer = fixture.service.core.preparer
        let query = "query($n: Int) { contacts(first: $n) { totalCount } }"
        _ = try await fixture.run(query, ["n": 1])
        let afterFirst = preparer.preparedCount.load(ordering: .relaxed)
        _ = try await fixture.run(query, ["n": 2])
        _ = try await fixture.run(query, ["n": 3])
        #expect(preparer.preparedCount.load(ordering: .relaxed) == afterFirst)
        // Invalid documents are cached too, with their errors.
        _ = try await fixture.run("{ nope }")
        _ = try await fixture.run("{ nope }")
        #expect(preparer.preparedCount.load(ordering: .relaxed) == afterFirst + 1)
        for index in 0..<10 { _ = try await fixture.run("{ n\(index): __typename }") }
        #expect(preparer.cache.count == 3)
    }
}
