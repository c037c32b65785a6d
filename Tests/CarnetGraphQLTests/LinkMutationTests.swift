import CarnetGraphQL
import CarnetStore
import Testing

@Suite("Linked contacts over GraphQL")
struct LinkMutationTests {
    static let link = """
        mutation($ids: [ID!]!) {
          save(request: {transactionAuthor: "linker", operations: [{linkContacts: $ids}]}) {
            contacts { id isUnified givenName emailAddresses { value } linkedContacts { id givenName isUnified } }
          }
        }
        """

    @Test("Linking returns the unified contact; fetches unify by default and not with unify: false")
    func linkAndFetch() async throws {
        let fixture = try GraphQLFixture()
        let work = try await fixture.store.addContainer(Container(name: "Work", type: .cardDAV)).identifier
        _ = try await fixture.data(
            """
            mutation($work: ID!) { save(request: {operations: [
              {addContact: {id: "l-1", givenName: "Ada", emailAddresses: [{value: "ada@example.com"}]}},
              {addContact: {id: "l-2", containerId: $work, givenName: "Augusta",
                emailAddresses: [{value: "ADA@example.com"}, {value: "ada@engine.example"}]}},
              {addContact: {id: "l-3", givenName: "Charles"}}]}) { revision } }
            """, ["work": .string(work)])
        let linked = try await fixture.data(Self.link, ["ids": ["l-1", "l-2"]])
        let unified = try #require(linked["save"]?["contacts"]?[0])
        let id = try #require(unified["id"]?.stringValue)
        #expect(id != "l-1" && id != "l-2")
        #expect(unified["isUnified"] == .bool(true))
        #expect(unified["givenName"] == "Ada")
        #expect(unified["emailAddresses"]?.json == #"[{"value":"ada@example.com"},{"value":"ada@engine.example"}]"#)
        #expect(
            unified["linkedContacts"]?.json
                == #"[{"givenName":"Ada","id":"l-1","isUnified":false},{"givenName":"Augusta","id":"l-2","isUnified":false}]"#
        )

        let pages = try await fixture.data(
            """
            query($id: ID!) {
              unified: contacts(sortOrder: GIVEN_NAME) { totalCount nodes { id givenName } }
              individual: contacts(sortOrder: GIVEN_NAME, unify: false) { totalCount nodes { id givenName } }
              search: contacts(filter: {name: "augusta"}) { nodes { id givenName } }
              byMember: contact(id: "l-2") { id }
              member: contact(id: "l-2", unify: false) { id givenName linkedContacts { id } }
              node(id: $id) { ... on Contact { id isUnified } }
            }
            """, ["id": .string(id)])
        #expect(pages["unified"]?["totalCount"] == 2)
        #expect(
            pages["unified"]?["nodes"]?.json
                == #"[{"givenName":"Ada","id":"\#(id)"},{"givenName":"Charles","id":"l-3"}]"#)
        #expect(pages["individual"]?["totalCount"] == 3)
        #expect(pages["search"]?["nodes"]?.json == #"[{"givenName":"Ada","id":"\#(id)"}]"#)
        #expect(pages["byMember"]?["id"]?.stringValue == id)
        #expect(
            pages["member"]?.json == #"{"givenName":"Augusta","id":"l-2","linkedContacts":[{"id":"l-1"},{"id":"l-2"}]}"#
        )
        #expect(pages["node"]?.json == #"{"id":"\#(id)","isUnified":true}"#)

        // An update through the unified identifier reaches the member holding the key.
        let updated = try await fixture.data(
            """
            mutation($id: ID!) { save(request: {operations: [{updateContact: {id: $id, jobTitle: "Countess"}},
              {setPreferredForName: "l-2"}]}) { contacts { id givenName jobTitle } } }
            """, ["id": .string(id)])
        #expect(updated["save"]?["contacts"]?.json == #"[{"givenName":"Augusta","id":"\#(id)","jobTitle":"Countess"}]"#)

        let unlinked = try await fixture.data(
            #"mutation { save(request: {operations: [{unlinkContact: "l-1"}]}) { contacts { id isUnified } } }"#)
        #expect(unlinked["save"]?["contacts"]?.json == #"[{"id":"l-1","isUnified":false}]"#)
        let after = try await fixture.data("{ contacts { totalCount } }")
        #expect(after["contacts"]?["totalCount"] == 3)
    }

    @Test("Deleting a unified contact reports its members as deleted too")
    func deleteUnified() async throws {
        let fixture = try GraphQLFixture()
        _ = try await fixture.data(
            """
            mutation { save(request: {operations: [{addContact: {id: "d-1", givenName: "Ada"}},
              {addContact: {id: "d-2", givenName: "Augusta"}}, {addContact: {id: "d-3", givenName: "Charles"}}]}) {
              revision } }
            """)
        let linked = try await fixture.data(Self.link, ["ids": ["d-1", "d-2"]])
        let id = try #require(linked["save"]?["contacts"]?[0]?["id"]?.stringValue)
        // A client that holds the members under their own identifiers (an individual one, or a unified one that
        // has not heard of the link yet) learns from the result what to remove.
        let deleted = try await fixture.data(
            """
            mutation($id: ID!) { save(request: {operations: [{deleteContact: $id}]}) { deletedContactIds } }
            """, ["id": .string(id)])
        #expect(
            Set(deleted["save"]?["deletedContactIds"]?.arrayValue?.compactMap(\.stringValue) ?? [])
                == [id, "d-1", "d-2"])
        #expect(
            try await fixture.data("{ contacts(unify: false) { nodes { id } } }")["contacts"]?.json
                == #"{"nodes":[{"id":"d-3"}]}"#)
    }

    @Test("Bad link operations are LINK_INVALID or RECORD_DOES_NOT_EXIST with the identifiers; nothing is written")
    func refusals() async throws {
        let fixture = try GraphQLFixture()
        _ = try await fixture.data(
            """
            mutation { save(request: {operations: [{addContact: {id: "r-1", givenName: "A"}},
              {addContact: {id: "r-2", givenName: "B"}}]}) { revision } }
            """)
        let cases: [(String, String)] = [
            (
                #"{linkContacts: ["r-1", "r-1"]}"#,
                #"{"affectedRecordIdentifiers":["r-1","r-1"],"code":"LINK_INVALID","operationIndex":0}"#
            ),
            (
                #"{linkContacts: ["r-1"]}"#,
                #"{"affectedRecordIdentifiers":["r-1"],"code":"LINK_INVALID","operationIndex":0}"#
            ),
            (
                #"{linkContacts: ["r-1", "elsewhere"]}"#,
                #"{"affectedRecordIdentifiers":["elsewhere"],"code":"RECORD_DOES_NOT_EXIST","operationIndex":0}"#
            ),
            (
                #"{unlinkContact: "r-2"}"#,
                #"{"affectedRecordIdentifiers":["r-2"],"code":"LINK_INVALID","operationIndex":0}"#
            ),
            (
                #"{setPreferredForImage: "r-2"}"#,
                #"{"affectedRecordIdentifiers":["r-2"],"code":"LINK_INVALID","operationIndex":0}"#
            ),
        ]
        for (operation, extensions) in cases {
            let refused = try await fixture.run(
                "mutation { save(request: {operations: [\(operation)]}) { revision } }")
            #expect(refused["data"] == .null)
            #expect(refused["errors"]?[0]?["extensions"]?.json == extensions, "\(operation)")
        }
        #expect(try await fixture.store.linkGroups(containing: ["r-1", "r-2"]).isEmpty)
    }
}
