import CarnetStoreTestSupport
import Testing

@testable import CarnetGraphQL
@testable import CarnetStore
@testable import CarnetStoreSQLite

@Suite("Change history over GraphQL")
struct ChangeHistoryTests {
    @Test("changeHistoryRetention reports the configured period and the oldest valid token")
    func retention() async throws {
        let fixture = try GraphQLFixture { $0.historyRetention = 3 * 3600 }
        _ = try await fixture.data(
            #"mutation { save(request: {operations: [{addContact: {givenName: "A"}}]}) { historyToken } }"#)
        let data = try await fixture.data("{ changeHistoryRetention { retentionSeconds oldestValidToken } }")
        #expect(data["changeHistoryRetention"]?["retentionSeconds"] == .int(3 * 3600))
        #expect(
            data["changeHistoryRetention"]?["oldestValidToken"]
                == .string(try await fixture.store.oldestValidHistoryToken()))
        // What clients are told fits GraphQL's Int whatever the configuration holds.
        var configuration = StoreConfiguration()
        for (retention, seconds) in [
            (-1.0, 0), (.nan, 0), (.infinity, Int(Int32.max)), (1e12, Int(Int32.max)), (90.9, 90),
        ] {
            configuration.historyRetention = retention
            #expect(configuration.historyRetentionSeconds == seconds)
        }
    }

    /// An outside tester: a membership changes its group's revision (and member count), but its event carried no
    /// group, so a replica following the loop kept the group's first revision for good.
    @Test("Membership events carry their group as it is now", arguments: StoreKind.available)
    func membershipCarriesGroup(kind: StoreKind) async throws {
        let fixture = GraphQLFixture(store: try await StoreFixture(kind).store)
        let added = try await fixture.data(
            #"mutation { save(request: {operations: [{addContact: {id: "c-m-1", givenName: "A"}}, "#
                + #"{addGroup: {id: "g-m-1", name: "G"}}]}) { historyToken } }"#)
        let token = try #require(added["save"]?["historyToken"]?.stringValue)
        for operation in ["addMember", "removeMember"] {
            _ = try await fixture.data(
                #"mutation { save(request: {operations: [{\#(operation): {contactId: "c-m-1", groupId: "g-m-1"}}]}) "#
                    + "{ revision } }")
            let page = try await fixture.data(
                "query($since: String) { changeHistory(since: $since, includeGroupChanges: true) { events { "
                    + "__typename ... on AddMemberToGroupEvent { group { revision memberCount } } "
                    + "... on RemoveMemberFromGroupEvent { group { revision memberCount } } } } }",
                ["since": .string(token)])
            let current = try await fixture.data(#"{ group(id: "g-m-1") { revision memberCount } }"#)
            let events = try #require(page["changeHistory"]?["events"]?.arrayValue)
            #expect(events.count == 1, "\(operation): \(page)")
            #expect(events.first?["group"] == current["group"], "\(operation): \(page) against \(current)")
        }
    }

    @Test(
        "DropEverythingEvent says why the token could not continue",
        arguments: [
            ("null", "NO_TOKEN"), (#""not a token""#, "MALFORMED_TOKEN"),
        ])
    func dropReason(since: String, reason: String) async throws {
        let fixture = try GraphQLFixture()
        let data = try await fixture.data(
            "{ changeHistory(since: \(since)) { events { __typename ... on DropEverythingEvent { reason } } } }")
        #expect(
            data["changeHistory"]?["events"]?[0]?.json == #"{"__typename":"DropEverythingEvent","reason":"\#(reason)"}"#
        )
    }

    @Test("A subscriber that stops reading during 700 saves gets every event once it reads on")
    func pausedSubscriber() async throws {
        let fixture = try GraphQLFixture()
        let operation = try fixture.service.operation(
            for: GraphQLRequestBody(
                query: """
                    subscription { changeHistory { token events { __typename ... on AddContactEvent { contactId contact { note } } } } }
                    """))
        guard case .stream(let stream) = await fixture.service.run(operation) else {
            Issue.record("not a stream")
            return
        }
        var iterator = stream.makeAsyncIterator()
        _ = await iterator.next()  // the catch-up payload; then the reader pauses
        let note = String(repeating: "n", count: 20_000)
        var created = Set<String>()
        for index in 0..<700 {
            var contact = Contact()
            contact.givenName = "Slow \(index)"
            contact.note = note
            var request = SaveRequest(transactionAuthor: "writer")
            request.add(contact)
            try await fixture.store.execute(request)
            created.insert(contact.identifier)
        }
        let current = try await fixture.store.currentHistoryToken()
        var seen = Set<String>()
        var payloads = 0
        var token: String?
        while token != current, let response = await iterator.next() {
            let page = try JSONParser.parse(response.body)["data"]?["changeHistory"]
            payloads += 1
            for event in page?["events"]?.arrayValue ?? [] {
                if let id = event["contactId"]?.stringValue, event["contact"]?["note"]?.stringValue == note {
                    seen.insert(id)
                }
            }
            token = page?["token"]?.stringValue
        }
        #expect(seen == created)
        // The pause coalesced the backlog into pages of up to 1,000 events instead of a payload per commit.
        #expect(payloads == 1)
    }
}

@Suite("Database errors over GraphQL")
struct DatabaseErrorGraphQLTests {
    @Test("A save on a database at its size limit answers STORAGE_FULL for the field, not an internal error")
    func storageFull() async throws {
        let fixture = try GraphQLFixture()
        _ = try await fixture.data(
            #"mutation { save(request: {operations: [{addContact: {givenName: "A"}}]}) { historyToken } }"#)
        try await #require(fixture.store as? SQLiteStore).fillToSizeLimit()
        let contact: JSONValue = [
            "addContact": ["givenName": "B", "note": .string(String(repeating: "n", count: 60_000))]
        ]
        let result = try await fixture.run(
            "mutation($r: SaveRequestInput!) { save(request: $r) { historyToken } }",
            ["r": ["operations": .array(Array(repeating: contact, count: 20))]])
        #expect(result["errors"]?[0]?["extensions"]?["code"] == .string("STORAGE_FULL"))
        #expect(result["errors"]?[0]?["path"]?.json == #"["save"]"#)
    }
}

extension SQLiteStore {
    /// Lets the database grow no further than it is now: the next large save meets SQLite's SQLITE_FULL.
    func fillToSizeLimit() async throws {
        try await writer.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            try db.execute(sql: "PRAGMA max_page_count = \(pages)")
        }
    }
}
