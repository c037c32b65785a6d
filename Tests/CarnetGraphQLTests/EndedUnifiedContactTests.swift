import CarnetGraphQL
import CarnetStore
import CarnetStoreTestSupport
import Testing

/// A save that ends a unified contact says so in `deletedContactIds`: its history records the end under the save's
/// author, so a client that excludes its own author learns of it only from the result. An outside fuzzer found a
/// replica keeping a unified contact for ever after its own link had ended it.
@Suite("Unified contacts a save ends")
struct EndedUnifiedContactTests {
    static let save = """
        mutation($ops: [SaveOperationInput!]!) {
          save(request: {transactionAuthor: "app-a", operations: $ops}) {
            contacts { id linkedContacts { id } } deletedContactIds
          }
        }
        """

    /// The save's result, with `app-a` as its author.
    static func save(_ operations: [JSONValue], _ graphQL: GraphQLFixture) async throws -> JSONValue {
        try #require(try await graphQL.data(save, ["ops": .array(operations)])["save"])
    }

    static func link(_ ids: [String]) -> JSONValue { ["linkContacts": .array(ids.map(JSONValue.string))] }

    @Test(
        "A link that takes a unified contact's members into another, and an unlink that leaves one member",
        arguments: StoreKind.available)
    func endedByLinkAndUnlink(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let graphQL = GraphQLFixture(store: fixture.store)
        func save(_ operations: [JSONValue]) async throws -> JSONValue {
            try await Self.save(operations, graphQL)
        }
        _ = try await save(
            ["c1", "c2", "c3", "c5", "c6", "c7"].map { ["addContact": ["id": .string($0), "givenName": .string($0)]] })
        let first = try #require(try await save([Self.link(["c1", "c2"])])["contacts"]?[0]?["id"]?.stringValue)
        let second = try #require(try await save([Self.link(["c6", "c7"])])["contacts"]?[0]?["id"]?.stringValue)
        // Another app grows the first and takes out the members a client knew it by: {c3, c5} now.
        _ = try await save([Self.link([first, "c3", "c5"])])
        _ = try await save([["unlinkContact": "c1"], ["unlinkContact": "c2"]])
        // Linking c5 brings its unified contact into the second: the first ends, though the save named none of
        // the members (c1, c2) a client may have known it by.
        let joined = try await save([Self.link([second, "c5"])])
        #expect(joined["deletedContactIds"]?.json == #"["\#(first)"]"#)
        #expect(
            joined["contacts"]?.json
                == #"[{"id":"\#(second)","linkedContacts":[{"id":"c3"},{"id":"c5"},{"id":"c6"},{"id":"c7"}]}]"#)
        // Unlinks that leave one member end that unified contact too.
        let left = try await save([["unlinkContact": "c3"], ["unlinkContact": "c5"], ["unlinkContact": "c6"]])
        #expect(left["deletedContactIds"]?.json == #"["\#(second)"]"#)
        let remaining = try await graphQL.data("{ contacts(first: 10) { nodes { id isUnified } } }")
        #expect(remaining["contacts"]?["nodes"]?.arrayValue?.contains { $0["isUnified"] == true } == false)
    }

    @Test(
        "A delete of a member shows the unified contact going on, or the member it leaves alone",
        arguments: StoreKind.available)
    func changedByMemberDeletes(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let graphQL = GraphQLFixture(store: fixture.store)
        func save(_ operations: [JSONValue]) async throws -> JSONValue {
            try await Self.save(operations, graphQL)
        }
        _ = try await save(
            ["x", "y", "z", "p", "q"].map { ["addContact": ["id": .string($0), "givenName": .string($0)]] })
        let three = try #require(try await save([Self.link(["x", "y", "z"])])["contacts"]?[0]?["id"]?.stringValue)
        let two = try #require(try await save([Self.link(["p", "q"])])["contacts"]?[0]?["id"]?.stringValue)
        // Its history is all under this save's author: a client that leaves it out learns it here only (an outside
        // tester's model kept y's values in the unified contact for ever).
        let shrunk = try await save([["deleteContact": "y"]])
        #expect(shrunk["deletedContactIds"]?.json == #"["y"]"#)
        #expect(shrunk["contacts"]?.json == #"[{"id":"\#(three)","linkedContacts":[{"id":"x"},{"id":"z"}]}]"#)
        let ended = try await save([["deleteContact": "q"]])
        #expect(ended["deletedContactIds"]?.json == #"["q","\#(two)"]"#)
        #expect(ended["contacts"]?.json == #"[{"id":"p","linkedContacts":[]}]"#)
        // A member left alone and deleted in the same save is gone, like the unified contact deleted whole.
        let whole = try await save([["deleteContact": "x"], ["deleteContact": "z"]])
        #expect(whole["contacts"]?.json == "[]")
    }
}
