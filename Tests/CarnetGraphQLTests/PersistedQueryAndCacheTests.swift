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
