import CarnetStore
import CarnetStoreTestSupport
import Foundation
import Synchronization
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

/// A query's answer asks the transport's budget for memory as it grows, so that many large queries at once cannot
/// spend the process's memory before any is held (only built answers counted, and each up to the 64 MiB limit).
@Suite("Response growth asked of the caller's budget")
struct ResponseGrowthTests {
    /// What a budget of `limit` bytes granted, in order.
    final class Grants: Sendable {
        let limit: Int
        let asked = Mutex<[Int]>([])
        init(limit: Int) { self.limit = limit }

        func context() -> GraphQLRequestContext {
            var context = GraphQLRequestContext()
            context.admitResponseBytes = { [self] bytes in
                asked.withLock { $0.append(bytes) }
                return bytes <= limit
            }
            return context
        }
    }

    @Test("Within the budget the answer is whole, asked a few times in growing steps; past it, cut with SERVER_BUSY")
    func growth() async throws {
        let fixture = try await ResponseSizeTests.fixture(limit: 64 << 20)
        let query = "{ contacts(first: 30) { nodes { id note } } }"
        let plenty = Grants(limit: 1 << 20)
        let response = await fixture.service.execute(GraphQLRequestBody(query: query), context: plenty.context())
        let whole = try JSONParser.parse(response.body)
        #expect(!response.wasCutShort && whole["errors"] == nil)
        #expect(whole["data"]?["contacts"]?["nodes"]?.arrayValue?.count == 30)
        let asked = plenty.asked.withLock { $0 }
        #expect(!asked.isEmpty && asked.count <= 4, "\(asked)")
        #expect(asked == asked.sorted() && asked.last! >= response.body.count, "\(asked), \(response.body.count)")

        // 30 notes of 1,000 bytes: about 31 KB, past a budget of 20 KB.
        let scarce = Grants(limit: 20_000)
        let cut = await fixture.service.execute(GraphQLRequestBody(query: query), context: scarce.context())
        let partial = try JSONParser.parse(cut.body)
        #expect(cut.wasCutShort)
        #expect(partial.errorCodes == ["SERVER_BUSY"], "\(partial.json.prefix(300))")
        #expect(partial["errors"]?[0]?["extensions"]?["retryAfter"] == 1)
        #expect(cut.body.count < 20_000)

        // Small answers never ask.
        let small = Grants(limit: 0)
        let id = await fixture.service.execute(
            GraphQLRequestBody(query: "{ contacts(first: 1) { nodes { id } } }"), context: small.context())
        #expect(!id.wasCutShort && !id.hasErrors)
        #expect(small.asked.withLock { $0 }.isEmpty)
    }

    @Test("A mutation's answer is not asked: it follows the save's commit")
    func mutationsAreNotAsked() async throws {
        let fixture = try await ResponseSizeTests.fixture(limit: 64 << 20)
        let none = Grants(limit: 0)
        let operations = (0..<30).map { "{addContact: {givenName: \"M\($0)\", note: \"\(ResponseSizeTests.note)\"}}" }
        let response = await fixture.service.execute(
            GraphQLRequestBody(
                query:
                    "mutation { save(request: {operations: [\(operations.joined(separator: ", "))]}) { contacts { note } } }"
            ),
            context: none.context())
        #expect(!response.wasCutShort && !response.hasErrors)
        #expect(response.body.count > 30_000)
        #expect(none.asked.withLock { $0 }.isEmpty)
    }
}

/// A page is read whole before it is written: 200 contacts of 1.7 MB each read 340 MB for a response that stopped
/// at 64 MiB (an outside tester's find). What a query reads of large values is bounded with its response.
@Suite("Reads bounded with the response")
struct ReadAllowanceTests {
    @Test(
        "A page whose values pass twice the response limit stops reading with MAX_RESPONSE_BYTES_EXCEEDED",
        arguments: StoreKind.available)
    func largeValues(kind: StoreKind) async throws {
        var limits = GraphQLLimits()
        limits.maxResponseBytes = 100_000
        let fixture = GraphQLFixture(store: try await StoreFixture(kind).store, limits: limits)
        let image = Data(repeating: 7, count: 30_000).base64EncodedString()
        let property = "X-LONG:" + String(repeating: "p", count: 30_000)
        for index in 0..<10 {
            _ = try await fixture.data(
                "mutation($r: SaveRequestInput!) { save(request: $r) { revision } }",
                [
                    "r": [
                        "operations": [
                            [
                                "addContact": [
                                    "givenName": .string("P\(index)"), "imageData": .string(image),
                                    "vCardProperties": [.string(property)],
                                ]
                            ]
                        ]
                    ]
                ])
        }
        let allowance = ReadAllowance(limit: 200_000)
        // 10 contacts of 60 KB: past 200 KB at the fourth, and the read stops there.
        let error = await ReadAllowance.$current.withValue(allowance) {
            await #expect(throws: StoreError.self) {
                _ = try await fixture.store.contacts(
                    ContactFetchRequest(keysToFetch: [.imageData, .vCardProperties], page: .first(10, after: nil)))
            }
        }
        #expect(error?.code == .responseTooLarge)
        // By identifier too (PostgreSQL reads those with their values in one statement), and values alone.
        let ids = try await fixture.store.contacts(ContactFetchRequest(keysToFetch: [], page: .first(10, after: nil)))
            .contacts.map(\.identifier)
        for keys: ContactKeySet in [[.vCardProperties], [.imageData]] {
            let error = await ReadAllowance.$current.withValue(ReadAllowance(limit: 200_000)) {
                await #expect(throws: StoreError.self, "\(keys)") {
                    _ = try await fixture.store.contacts(withIdentifiers: ids, keysToFetch: keys)
                }
            }
            #expect(error?.code == .responseTooLarge, "\(keys)")
        }
        let response = try await fixture.run("{ contacts(first: 10) { nodes { imageData vCardProperties } } }")
        #expect(response.errorCodes == ["MAX_RESPONSE_BYTES_EXCEEDED"], "\(response.json.prefix(300))")
        // Within the limit the same page is read and written.
        let small = try await fixture.data("{ contacts(first: 1) { nodes { imageData vCardProperties } } }")
        #expect(small["contacts"]?["nodes"]?[0]?["imageData"]?.stringValue == image)
        // A plain page with no allowance (the store's own callers) reads everything.
        let all = try await fixture.store.contacts(
            ContactFetchRequest(keysToFetch: [.imageData, .vCardProperties], page: .first(10, after: nil)))
        #expect(all.contacts.count == 10 && all.contacts.allSatisfy { $0.imageData?.count == 30_000 })
    }
}
