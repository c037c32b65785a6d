import CarnetStore
import Foundation
import Testing

@testable import CarnetGraphQL

@Suite("Duplicate candidates over GraphQL")
struct DuplicateCandidatesTests {
    /// Three pairs: an email and a name (score 1), a phone (0.5), a nickname (0.2).
    static func seed(_ store: any ContactStore) async throws -> [String] {
        var request = SaveRequest()
        let contacts: [(String, String, String, [String], [String])] = [
            ("d-1", "Ann", "Lee", ["ann@example.com"], []),
            ("d-2", "ANN", "Lée", ["Ann@Example.com"], []),
            ("d-3", "Bo", "Kim", [], ["+1 (555) 555-1234"]),
            ("d-4", "Bea", "Park", [], ["5555551234"]),
            ("d-5", "Robert", "Brown", [], []),
            ("d-6", "Bob", "Brown", [], []),
        ]
        for (id, given, family, emails, phones) in contacts {
            var contact = Contact(identifier: id)
            contact.givenName = given
            contact.familyName = family
            if id == "d-5" { contact.nickname = "Bob" }
            contact.emailAddresses = emails.map { LabeledValue(label: ContactLabel.home, value: $0) }
            contact.phoneNumbers = phones.map { LabeledValue(label: ContactLabel.phoneMobile, value: $0) }
            request.add(contact)
        }
        try await store.execute(request)
        return contacts.map(\.0)
    }

    @Test("Candidates page with their contacts, score and reasons")
    func pages() async throws {
        let fixture = try GraphQLFixture()
        _ = try await Self.seed(fixture.store)
        let data = try await fixture.data(
            """
            { duplicateCandidates(first: 2) {
                totalCount
                pageInfo { hasNextPage hasPreviousPage endCursor }
                nodes { score contacts { id givenName } reasons { kind value } }
            } }
            """)
        let connection = try #require(data["duplicateCandidates"])
        #expect(connection["totalCount"] == 3)
        #expect(connection["pageInfo"]?["hasNextPage"] == true)
        #expect(connection["pageInfo"]?["hasPreviousPage"] == false)
        #expect(
            connection["nodes"]?.json
                == #"[{"contacts":[{"givenName":"Ann","id":"d-1"},{"givenName":"ANN","id":"d-2"}],"reasons":[{"kind":"EMAIL_ADDRESS","value":"ann@example.com"},{"kind":"FULL_NAME","value":"ann lee"}],"score":1},"#
                + #"{"contacts":[{"givenName":"Bo","id":"d-3"},{"givenName":"Bea","id":"d-4"}],"reasons":[{"kind":"PHONE_NUMBER","value":"5555551234"}],"score":0.5}]"#
        )
        let cursor = try #require(connection["pageInfo"]?["endCursor"]?.stringValue)
        let next = try await fixture.data(
            """
            query($after: String) { duplicateCandidates(first: 2, after: $after) {
                pageInfo { hasNextPage hasPreviousPage }
                edges { cursor node { score contacts { id } reasons { kind value } } }
            } }
            """, ["after": .string(cursor)])
        #expect(next["duplicateCandidates"]?["pageInfo"]?.json == #"{"hasNextPage":false,"hasPreviousPage":true}"#)
        #expect(
            next["duplicateCandidates"]?["edges"]?[0]?["node"]?.json
                == #"{"contacts":[{"id":"d-5"},{"id":"d-6"}],"reasons":[{"kind":"NICKNAME","value":"bob brown"}],"score":0.2}"#
        )
    }

    @Test("Bad cursors and page sizes are BAD_USER_INPUT on the field")
    func badArguments() async throws {
        let fixture = try GraphQLFixture()
        _ = try await Self.seed(fixture.store)
        for (arguments, message) in [
            ("first: 0", "Page sizes"), ("first: 1001", "Page sizes"), (#"after: "nope""#, "cursor"),
        ] {
            let result = try await fixture.run("{ duplicateCandidates(\(arguments)) { totalCount } }")
            #expect(result["errors"]?[0]?["extensions"]?["code"] == "BAD_USER_INPUT", "\(arguments): \(result)")
            #expect(result["errors"]?[0]?["path"]?.json == #"["duplicateCandidates"]"#)
            #expect(result["errors"]?[0]?["message"]?.stringValue?.contains(message) == true, "\(result)")
        }
    }

    @Test("The contacts are fetched with the selected keys only")
    func onlySelectedKeys() async throws {
        let log = SQLLog()
        let fixture = try GraphQLFixture { $0.statementTrace = { log.append($0) } }
        _ = try await Self.seed(fixture.store)
        log.reset()
        _ = try await fixture.data("{ duplicateCandidates { nodes { contacts { givenName } } } }")
        let loads = log.selects.filter { $0.contains("c.") }.joined(separator: "\n")
        #expect(loads.contains("c.givenName"), "\(loads)")
        for other in ["c.familyName", "lv.", "contactImage", "c.note"] {
            #expect(!loads.contains(other), "read \(other): \(loads)")
        }
        log.reset()
        _ = try await fixture.data("{ duplicateCandidates { totalCount nodes { score } } }")
        #expect(!log.selects.contains { $0.contains("c.") }, "loaded contacts nobody selected")
    }

    @Test("A page of 1000 candidates with their contacts is within the node limit")
    func nodeLimit() async throws {
        let fixture = try GraphQLFixture()
        let result = try await fixture.run("{ duplicateCandidates(first: 1000) { nodes { contacts { id } } } }")
        #expect(result["errors"] == nil, "\(result)")
    }

    @Test("A request reads the whole book once: a second duplicateCandidates is MAX_BOOK_SCANS_EXCEEDED")
    func oneScanPerRequest() async throws {
        let fixture = try GraphQLFixture()
        _ = try await Self.seed(fixture.store)
        func codes(_ query: String) async throws -> [String] {
            let response = try await fixture.run(query)
            return (response["errors"]?.arrayValue ?? []).compactMap { $0["extensions"]?["code"]?.stringValue }
        }
        #expect(
            try await codes("{ a: duplicateCandidates { totalCount } b: duplicateCandidates(first: 1) { totalCount } }")
                == ["MAX_BOOK_SCANS_EXCEEDED"])
        #expect(
            try await codes(
                "{ ...F ...G } fragment F on Query { duplicateCandidates { totalCount } } fragment G on Query { x: duplicateCandidates { totalCount } }"
            ) == ["MAX_BOOK_SCANS_EXCEEDED"])
        // The same field twice through fragments merges into one read.
        #expect(
            try await codes("{ ...F ...F } fragment F on Query { duplicateCandidates { totalCount } }").isEmpty)
        #expect(try await codes("{ duplicateCandidates { totalCount } contacts { totalCount } }").isEmpty)
    }
}
