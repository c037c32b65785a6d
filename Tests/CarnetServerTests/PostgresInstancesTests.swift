import CarnetServer
import CarnetStore
import CarnetStoreTestSupport
import Foundation
import HummingbirdTesting
import Testing

@testable import CarnetServer

/// Two Carnet instances (two `buildApplication`s, two pools) on one PostgreSQL database, driven through their
/// routers as a load balancer would: what one writes, the other serves, and a conflict between them is one CONFLICT.
@Suite(
    "Two instances on PostgreSQL", .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
struct PostgresInstancesTests {
    /// Runs `body` with two instances on a new database, each with its router in process.
    func withInstances(
        _ body: @escaping @Sendable (TestServer, TestClient, TestServer, TestClient) async throws -> Void
    )
        async throws
    {
        try await PostgresTestDatabase.with { location in
            let url = location.testURL
            // No polling to speak of: what reaches the other instance's subscribers comes through LISTEN/NOTIFY.
            let configure: @Sendable (inout ServerConfiguration) -> Void = {
                $0.databaseURL = url
                $0.storeConfiguration.externalChangePollInterval = 3_600
            }
            try await withRouter(configure) { a, clientA in
                try await withRouter(configure) { b, clientB in
                    try await body(a, clientA, b, clientB)
                }
            }
        }
    }

    static let addAnna = """
        mutation { save(request: {transactionAuthor: "a", operations: [{addContact: {givenName: "Anna"}}]}) {
            revision contacts { id } } }
        """

    @Test("A save through one instance is read through the other at once, with a token made by either")
    func readYourWritesAcrossInstances() async throws {
        try await withInstances { a, clientA, b, clientB in
            let token = try await a.token()
            let saved = try await clientA.graphql(Self.addAnna, token: token)
            let data = saved.json["data"] as? [String: Any]
            let save = data?["save"] as? [String: Any]
            let id = try #require((save?["contacts"] as? [[String: Any]])?.first?["id"] as? String)
            let read = try await clientB.graphql(#"{ contact(id: "\#(id)") { givenName } }"#, token: token)
            #expect(read.body == #"{"data":{"contact":{"givenName":"Anna"}}}"#)
            // Both instances serve the same admin principal and default book.
            #expect(try await a.app.backend.admin().id == b.app.backend.admin().id)
        }
    }

    @Test("Concurrent updates from the same base revision through both instances: one succeeds, one CONFLICT")
    func conflictAcrossInstances() async throws {
        try await withInstances { a, clientA, _, clientB in
            let token = try await a.token()
            let saved = try await clientA.graphql(Self.addAnna, token: token)
            let save = (saved.json["data"] as? [String: Any])?["save"] as? [String: Any]
            let id = try #require((save?["contacts"] as? [[String: Any]])?.first?["id"] as? String)
            let base = try #require(save?["revision"] as? String)
            func update(_ client: TestClient, _ name: String) async throws -> [String] {
                let mutation = """
                    mutation { save(request: {transactionAuthor: "a", operations: [{updateContact: {id: "\(id)",
                        baseRevision: "\(base)", givenName: "\(name)"}}]}) { revision } }
                    """
                // A save that outwaits a loaded machine's book-lock timeout wrote nothing and goes again, as a
                // client honouring UNAVAILABLE does (bounded: a save that never gets the lock still fails).
                var codes = try await client.graphql(mutation, token: token).errorCodes
                for _ in 0..<10 where codes == ["UNAVAILABLE"] {
                    codes = try await client.graphql(mutation, token: token).errorCodes
                }
                return codes
            }
            async let first = update(clientA, "Annie")
            async let second = update(clientB, "Ann")
            let outcomes = try await [first, second]
            #expect(outcomes.filter(\.isEmpty).count == 1, "\(outcomes)")
            #expect(outcomes.filter { $0 == ["CONFLICT"] }.count == 1, "\(outcomes)")
        }
    }

    @Test("A subscriber of instance B hears of a save made through instance A (a NOTIFY wake-up, no polling)")
    func notificationsAcrossInstances() async throws {
        try await withInstances { a, clientA, b, _ in
            let token = try await a.token()
            let changes = await b.store.changes().makeAsyncIterator()
            _ = try await clientA.graphql(Self.addAnna, token: token)
            let change = await changes.next()
            #expect(change?.authors == ["a"])
            #expect(change?.token == (try await a.store.currentHistoryToken()))
        }
    }
}
