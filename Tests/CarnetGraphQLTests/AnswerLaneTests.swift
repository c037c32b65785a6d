import CarnetGraphQL
import CarnetStore
import CarnetStoreTestSupport
import Foundation
import Synchronization
import Testing

/// Large answers are built on a thread of their own (``AnswerWeight``), so that two of them
/// cannot hold the cooperative pool that every other request needs; the commonest reads stay where they run.
@Suite("Answer lane")
struct AnswerLaneTests {
    /// Runs `query` and says where its answer was built: asked to grow past its first 16 KiB, the query's context
    /// notes whether the thread it runs on is a background lane's.
    func builtOnLane(_ fixture: GraphQLFixture, _ query: String) async throws -> Bool? {
        let seen = Mutex<Bool?>(nil)
        var context = GraphQLRequestContext()
        context.admitResponseBytes = { _ in
            seen.withLock { $0 = $0 ?? BackgroundExecutor.runsOnCurrentThread }
            return true
        }
        let result = try await fixture.run(query, context: context)
        #expect(result["errors"] == nil, "\(result)")
        return seen.withLock { $0 }
    }

    @Test("Pages with vCards or images, and pages of many records, are built on the lane; a contact by id is not")
    func lanes() async throws {
        let fixture = try GraphQLFixture()
        let contacts = (0..<2_000).map { index in
            var contact = Make.person("Ada \(index)", "Lovelace")
            if index < 10 { contact.note = String(repeating: "n", count: 20_000) }
            return contact
        }
        try await fixture.store.add(contacts)
        let id = contacts[0].identifier
        #expect(try await builtOnLane(fixture, #"{ contact(id: "\#(id)") { note } }"#) != true)
        #expect(try await builtOnLane(fixture, "{ contacts(first: 5) { nodes { note } } }") == false)
        #expect(try await builtOnLane(fixture, "{ contacts(first: 5) { nodes { vCard } } }") == true)
        #expect(try await builtOnLane(fixture, "{ contacts(first: 5) { nodes { imageData note } } }") == true)
        // A history page of 1,000 stays; a full sync's larger page goes.
        let history = "{ changeHistory(first: %d) { events { __typename } } }"
        #expect(try await builtOnLane(fixture, String(format: history, 1_000)) == false)
        #expect(try await builtOnLane(fixture, String(format: history, 5_000)) == true)
        let page = try await fixture.data(String(format: history, 5_000))
        #expect(page["changeHistory"]?["events"]?.arrayValue?.count == 2_001)
    }
}
