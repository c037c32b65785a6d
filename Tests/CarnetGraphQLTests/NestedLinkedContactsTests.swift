import CarnetGraphQL
import CarnetStore
import Testing

/// A linked set's members are each other's linked contacts, so one contact stands on every level of a nested
/// `linkedContacts`: each level (and each alias) keeps its own lists and the keys it asked for.
@Suite("Nested linked contacts")
struct NestedLinkedContactsTests {
    static func linkedPair() async throws -> GraphQLFixture {
        let fixture = try GraphQLFixture()
        _ = try await fixture.data(
            """
            mutation { save(request: {operations: [
              {addContact: {id: "k0", givenName: "Ada"}}, {addContact: {id: "k1", givenName: "Augusta"}},
              {addContact: {id: "k2", givenName: "Charles"}}]}) { revision } }
            """)
        _ = try await fixture.data(LinkMutationTests.link, ["ids": ["k0", "k1"]])
        return fixture
    }

    @Test("Every level of a nested linkedContacts holds the members, when the page holds the whole set")
    func nestedLevels() async throws {
        let fixture = try await Self.linkedPair()
        let page = try await fixture.data(
            """
            { contacts(unify: false, sortOrder: GIVEN_NAME) { nodes { id
                linkedContacts { id givenName linkedContacts { id } }
                x: linkedContacts { linkedContacts { givenName } } } } }
            """)
        let level =
            #"[{"givenName":"Ada","id":"k0","linkedContacts":[{"id":"k0"},{"id":"k1"}]},"#
            + #"{"givenName":"Augusta","id":"k1","linkedContacts":[{"id":"k0"},{"id":"k1"}]}]"#
        let aliased =
            #"[{"linkedContacts":[{"givenName":"Ada"},{"givenName":"Augusta"}]},"#
            + #"{"linkedContacts":[{"givenName":"Ada"},{"givenName":"Augusta"}]}]"#
        let nodes = try #require(page["contacts"]?["nodes"]?.arrayValue)
        #expect(nodes.count == 3)
        for node in nodes.prefix(2) {
            #expect(node["linkedContacts"]?.json == level)
            #expect(node["x"]?.json == aliased)
        }
        #expect(nodes[2]["linkedContacts"]?.json == "[]")
    }

    @Test("An inner level's keys do not replace an outer level's, from a single contact too")
    func keysPerLevel() async throws {
        let fixture = try await Self.linkedPair()
        let response = try await fixture.run(
            #"{ contact(id: "k0", unify: false) { linkedContacts { givenName linkedContacts { id } } } }"#)
        #expect(response["errors"] == nil)
        #expect(
            response["data"]?["contact"]?["linkedContacts"]?.json
                == #"[{"givenName":"Ada","linkedContacts":[{"id":"k0"},{"id":"k1"}]},"#
                + #"{"givenName":"Augusta","linkedContacts":[{"id":"k0"},{"id":"k1"}]}]"#)
    }
}
