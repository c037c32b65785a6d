import CarnetGraphQL
import CarnetStore
import Testing

@Suite("mergeContacts over GraphQL")
struct MergeMutationTests {
    static let merge = """
        mutation($into: ID!, $from: [ID!]!) {
          save(request: {transactionAuthor: "cleanup", operations: [{mergeContacts: {into: $into, from: $from}}]}) {
            contacts { id givenName familyName emailAddresses { identifier value } } deletedContactIds
          }
        }
        """

    @Test("A merge returns the survivor and the absorbed identifiers; a bad one its code and identifiers")
    func mergeOverGraphQL() async throws {
        let fixture = try GraphQLFixture()
        let created = try await fixture.data(
            """
            mutation { save(request: {operations: [
              {addContact: {id: "m-1", givenName: "Ada", emailAddresses: [{value: "ada@example.com"}]}},
              {addContact: {id: "m-2", familyName: "Lovelace", emailAddresses: [{value: "ADA@example.com"},
                {label: "work", value: "ada@engine.example"}]}},
              {addContact: {id: "m-3", givenName: "Charles"}}]}) {
              contacts { id emailAddresses { identifier } } } }
            """)
        let moved = created["save"]?["contacts"]?[1]?["emailAddresses"]?[1]?["identifier"]
        let result = try await fixture.data(Self.merge, ["into": "m-1", "from": ["m-2"]])
        let survivor = result["save"]?["contacts"]?[0]
        #expect(survivor?["id"] == "m-1")
        #expect(survivor?["familyName"] == "Lovelace")
        #expect(survivor?["emailAddresses"]?.arrayValue?.count == 2)
        #expect(survivor?["emailAddresses"]?[1]?["identifier"] == moved)
        #expect(result["save"]?["deletedContactIds"]?.json == #"["m-2"]"#)

        let cases: [(JSONValue, String)] = [
            (
                ["into": "m-1", "from": ["m-1"]],
                #"{"affectedRecordIdentifiers":["m-1"],"code":"VALIDATION_FAILED","keyPaths":["into"],"operationIndex":0}"#
            ),
            (
                ["into": "m-1", "from": []],
                #"{"affectedRecordIdentifiers":["m-1"],"code":"VALIDATION_FAILED","keyPaths":["from"],"operationIndex":0}"#
            ),
            (
                ["into": "m-1", "from": ["m-2"]],
                #"{"affectedRecordIdentifiers":["m-2"],"code":"RECORD_DOES_NOT_EXIST","operationIndex":0}"#
            ),
        ]
        for (variables, extensions) in cases {
            let refused = try await fixture.run(Self.merge, variables.objectValue ?? [:])
            #expect(refused["data"] == .null)
            #expect(refused["errors"]?[0]?["extensions"]?.json == extensions, "\(variables.json)")
        }
        #expect(try await fixture.store.contactCount() == 2)
    }
}
