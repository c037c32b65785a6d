import CarnetStore
import Foundation
import Testing

@testable import CarnetGraphQL

@Suite("Execution")
struct ExecutionTests {
    @Test("Variables are coerced with defaults; operationName picks the operation")
    func variablesAndOperations() async throws {
        let fixture = try GraphQLFixture()
        try await SampleData.seed(fixture.store)
        let document = """
            query Count($name: String = "smi") { contacts(filter: {name: $name}) { totalCount } }
            query Names($first: Int!) { contacts(first: $first, sortOrder: GIVEN_NAME) { nodes { givenName } } }
            """
        let count = try await fixture.run(document, operationName: "Count")
        #expect(count["data"]?["contacts"]?["totalCount"] == 3)
        let overridden = try await fixture.run(document, ["name": "zoe"], operationName: "Count")
        #expect(overridden["data"]?["contacts"]?["totalCount"] == 1)
        let names = try await fixture.run(document, ["first": 2], operationName: "Names")
        #expect(names["data"]?["contacts"]?["nodes"]?.json == #"[{"givenName":"Anna"},{"givenName":"Annabel"}]"#)
        let ambiguous = try await fixture.run(document)
        #expect(ambiguous["errors"]?[0]?["extensions"]?["code"] == "OPERATION_NOT_FOUND")
        let unknown = try await fixture.run(document, operationName: "Nope")
        #expect(unknown["errors"]?[0]?["extensions"]?["code"] == "OPERATION_NOT_FOUND")
        let missing = try await fixture.run(document, operationName: "Names")
        #expect(missing["errors"]?[0]?["extensions"]?["code"] == "BAD_USER_INPUT")
        #expect(missing["data"] == nil)
        let wrongType = try await fixture.run(document, ["first": "two"], operationName: "Names")
        #expect(wrongType["errors"]?[0]?["message"]?.stringValue?.contains("$first") == true)
    }

    @Test("The response follows selection order, aliases included")
    func selectionOrder() async throws {
        let fixture = try GraphQLFixture()
        try await SampleData.seed(fixture.store)
        let response = await fixture.service.execute(
            GraphQLRequestBody(
                query:
                    "{ z: currentHistoryToken contacts(first: 1, sortOrder: FAMILY_NAME) { nodes { zz: familyName aa: givenName id } } a: defaultContainer { name } }"
            ))
        let text = String(decoding: response.body, as: UTF8.self)
        let order = ["\"z\"", "\"contacts\"", "\"zz\"", "\"aa\"", "\"id\"", "\"a\""].map {
            text.range(of: $0)!.lowerBound
        }
        #expect(order == order.sorted(), "\(text)")
    }

    @Test("Mutations run serially: a later root field sees the earlier one's write")
    func serialMutations() async throws {
        let fixture = try GraphQLFixture()
        let data = try await fixture.data(
            """
            mutation {
              first: save(request: {operations: [{addContact: {id: "c-1", givenName: "Ann"}}]}) { revision }
              second: save(request: {operations: [{updateContact: {id: "c-1", familyName: "Lee"}}]}) { revision contacts { givenName familyName } }
            }
            """)
        #expect(data["second"]?["contacts"]?.json == #"[{"familyName":"Lee","givenName":"Ann"}]"#)
        let first = Int(data["first"]?["revision"]?.stringValue ?? "") ?? 0
        let second = Int(data["second"]?["revision"]?.stringValue ?? "") ?? 0
        #expect(second > first)
    }

    @Test("A failing field nulls up to its nearest nullable parent, with path and location")
    func nullPropagation() async throws {
        let fixture = try GraphQLFixture()
        let seeded = try await SampleData.seed(fixture.store)
        // members is [Contact!]! and fails on first: 0; group is nullable, so group becomes null.
        let response = try await fixture.run(
            """
            { group(id: "\(seeded.groups[0])") { name members(first: 0) { id } } currentHistoryToken }
            """)
        #expect(response["data"]?["group"] == .null)
        #expect(response["data"]?["currentHistoryToken"]?.stringValue != nil)
        let error = try #require(response["errors"]?[0])
        #expect(error["path"]?.json == #"["group","members"]"#)
        #expect(error["locations"]?[0]?["line"] == 1)
        #expect(error["extensions"]?["code"] == "BAD_USER_INPUT")
    }

    @Test("A save error carries the store's code and details, and writes nothing")
    func saveErrors() async throws {
        let fixture = try GraphQLFixture()
        try await SampleData.seed(fixture.store)
        let before = try await fixture.store.contactCount()
        let missing = try await fixture.run(
            """
            mutation { save(request: {transactionAuthor: "t", operations: [
              {addContact: {givenName: "New"}}, {deleteContact: "nobody"}]}) { revision } }
            """)
        #expect(missing["data"] == .null)
        #expect(
            missing["errors"]?[0]?["extensions"]?.json
                == #"{"affectedRecordIdentifiers":["nobody"],"code":"RECORD_DOES_NOT_EXIST","operationIndex":1}"#)
        #expect(missing["errors"]?[0]?["path"]?.json == #"["save"]"#)
        let invalid = try await fixture.run(
            """
            mutation { save(request: {operations: [{addContact: {givenName: "X", birthday: {month: 2, day: 30},
              emailAddresses: [{value: " "}]}}]}) { revision } }
            """)
        #expect(invalid["errors"]?[0]?["extensions"]?["code"] == "VALIDATION_FAILED")
        #expect(
            invalid["errors"]?[0]?["extensions"]?["keyPaths"]?.json == #"["birthday.day","emailAddresses[0].value"]"#)
        #expect(try await fixture.store.contactCount() == before)
    }

    @Test("Concurrent edits merge through baseRevision, or fail with CONFLICT and the key paths")
    func mergeOverGraphQL() async throws {
        let fixture = try GraphQLFixture()
        let created = try await fixture.data(
            #"mutation { save(request: {operations: [{addContact: {id: "m-1", givenName: "A", jobTitle: "J"}}]}) { revision } }"#
        )
        let base = created["save"]?["revision"] ?? .null
        let update =
            "mutation($input: UpdateContactInput!) { save(request: {operations: [{updateContact: $input}]}) { contacts { givenName jobTitle } } }"
        func input(_ fields: [String: JSONValue]) -> JSONValue {
            .object(fields.merging(["id": "m-1", "baseRevision": base]) { a, _ in a })
        }
        _ = try await fixture.data(update, ["input": input(["givenName": "B"])])
        let merged = try await fixture.data(update, ["input": input(["jobTitle": "K"])])
        #expect(merged["save"]?["contacts"]?.json == #"[{"givenName":"B","jobTitle":"K"}]"#)
        let conflict = try await fixture.run(update, ["input": input(["givenName": "C"])])
        #expect(conflict["errors"]?[0]?["extensions"]?["code"] == "CONFLICT")
        #expect(conflict["errors"]?[0]?["extensions"]?["keyPaths"]?.json == #"["givenName"]"#)
    }

    @Test("A save's result lists what its operations named, a change or not; revision is null when nothing changed")
    func noOpSaveResult() async throws {
        let fixture = try GraphQLFixture()
        let add = """
            mutation { save(request: {operations: [{addContact: {id: "n-1", givenName: "A"}},
              {addGroup: {id: "g-1", name: "G"}}, {addMember: {contactId: "n-1", groupId: "g-1"}}]}) { revision } }
            """
        #expect(try await fixture.data(add)["save"]?["revision"] != .null)
        let again = try await fixture.data(
            """
            mutation { save(request: {operations: [{addMember: {contactId: "n-1", groupId: "g-1"}},
              {updateContact: {id: "n-1", givenName: "A"}}]}) {
              revision contacts { id givenName } groups { id memberCount } } }
            """)
        #expect(
            again["save"]?.json
                == #"{"contacts":[{"givenName":"A","id":"n-1"}],"groups":[{"id":"g-1","memberCount":1}],"revision":null}"#
        )
    }

    @Test("Updates are partial: absent fields stay, null clears")
    func partialUpdates() async throws {
        let fixture = try GraphQLFixture()
        _ = try await fixture.data(
            #"mutation { save(request: {operations: [{addContact: {id: "p-1", givenName: "A", note: "n", birthday: {month: 1, day: 2}, phoneNumbers: [{label: "mobile", value: "1"}]}}]}) { revision } }"#
        )
        let data = try await fixture.data(
            #"mutation { save(request: {operations: [{updateContact: {id: "p-1", note: null, birthday: null}}]}) { contacts { givenName note birthday { day } phoneNumbers { label value } } } }"#
        )
        #expect(
            data["save"]?["contacts"]?.json
                == #"[{"birthday":null,"givenName":"A","note":"","phoneNumbers":[{"label":"mobile","value":"1"}]}]"#)
    }
}
