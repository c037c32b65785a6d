import CarnetGraphQL
import CarnetStore
import CarnetStoreTestSupport
import Testing

/// A save that deletes a group's member changes the group (its revision and member count) under the save's author,
/// so a client that excludes its own author learns of it only from the result's `groups`. An outside tester's
/// randomized sync client kept such a group's old revision and count for ever.
@Suite("Groups a save's deletes change")
struct GroupsLeftByDeleteTests {
    static let save = """
        mutation($ops: [SaveOperationInput!]!) {
          save(request: {transactionAuthor: "me", operations: $ops}) {
            groups { id memberCount revision } deletedContactIds
          }
        }
        """

    @Test("A deleted member's groups follow the groups the operations named, each once", arguments: StoreKind.available)
    func listed(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let graphQL = GraphQLFixture(store: fixture.store)
        func save(_ operations: [JSONValue]) async throws -> JSONValue {
            try #require(try await graphQL.data(Self.save, ["ops": .array(operations)])["save"])
        }
        func member(_ contact: String, _ group: String) -> JSONValue {
            ["addMember": ["contactId": .string(contact), "groupId": .string(group)]]
        }
        _ = try await save(
            ["a", "b", "c"].map { ["addContact": ["id": .string($0), "givenName": .string($0)]] }
                + ["g1", "g2", "g3"].map { ["addGroup": ["id": .string($0), "name": .string($0)]] }
                + [member("a", "g1"), member("b", "g1"), member("a", "g2"), member("c", "g3")])
        let result = try await save([
            ["updateGroup": ["id": "g3", "name": "Renamed"]], ["deleteContact": "a"],
        ])
        #expect(result["deletedContactIds"]?.json == #"["a"]"#)
        let groups = try #require(result["groups"]?.arrayValue)
        #expect(groups.compactMap { $0["id"]?.stringValue } == ["g3", "g1", "g2"])
        #expect(groups.compactMap { $0["memberCount"]?.intValue } == [1, 1, 0])
        // As the store has them now: the client that applies the result holds the groups' current revisions.
        var revisions: [String: String] = [:]
        for group in try await graphQL.data("{ groups { id revision } }")["groups"]?.arrayValue ?? [] {
            revisions[group["id"]?.stringValue ?? ""] = group["revision"]?.json
        }
        for group in groups { #expect(revisions[group["id"]?.stringValue ?? ""] == group["revision"]?.json) }
    }
}
