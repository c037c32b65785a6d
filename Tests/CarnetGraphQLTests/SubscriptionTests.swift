import CarnetStore
import Testing

@testable import CarnetGraphQL

@Suite("Subscriptions")
struct SubscriptionTests {
    func stream(_ fixture: GraphQLFixture, _ query: String) async throws -> AsyncStream<GraphQLResponse> {
        let operation = try fixture.service.operation(for: GraphQLRequestBody(query: query))
        guard case .stream(let stream) = await fixture.service.run(operation) else {
            Issue.record("not a stream")
            throw CancellationError()
        }
        return stream
    }

    func save(_ fixture: GraphQLFixture, author: String, name: String) async throws {
        var request = SaveRequest(transactionAuthor: author)
        var contact = Contact()
        contact.givenName = name
        request.add(contact)
        try await fixture.store.execute(request)
    }

    @Test("storeDidChange skips commits whose authors are all excluded")
    func storeDidChange() async throws {
        let fixture = try GraphQLFixture()
        let mine = try await stream(
            fixture, #"subscription { storeDidChange(excludedAuthors: ["A"]) { historyToken authors } }"#)
        var iterator = mine.makeAsyncIterator()
        try await save(fixture, author: "A", name: "by A")
        try await save(fixture, author: "B", name: "by B")
        let event = try JSONParser.parse(try #require(await iterator.next()).body)
        #expect(event["data"]?["storeDidChange"]?["authors"]?.json == #"["B"]"#)
        #expect(
            event["data"]?["storeDidChange"]?["historyToken"] == .string(try await fixture.store.currentHistoryToken()))
    }

    @Test("changeHistory catches up from a token, then streams new events live")
    func changeHistory() async throws {
        let fixture = try GraphQLFixture()
        try await save(fixture, author: "setup", name: "Before")
        let stream = try await stream(
            fixture,
            """
            subscription { changeHistory(excludedAuthors: ["me"]) { token hasMore events { __typename
              ... on AddContactEvent { author contact { givenName } } } } }
            """)
        var iterator = stream.makeAsyncIterator()
        let catchUp = try JSONParser.parse(try #require(await iterator.next()).body)
        #expect(
            catchUp["data"]?["changeHistory"]?["events"]?.json
                == #"[{"__typename":"DropEverythingEvent"},{"__typename":"AddContactEvent","author":null,"contact":{"givenName":"Before"}}]"#
        )
        try await save(fixture, author: "me", name: "Mine")
        try await save(fixture, author: "other", name: "Theirs")
        let live = try JSONParser.parse(try #require(await iterator.next()).body)
        #expect(
            live["data"]?["changeHistory"]?["events"]?.json
                == #"[{"__typename":"AddContactEvent","author":"other","contact":{"givenName":"Theirs"}}]"#)
    }

    @Test("Subscriptions are refused over plain execution; queries run through run(_:) once")
    func transports() async throws {
        let fixture = try GraphQLFixture()
        let response = await fixture.service.execute(
            GraphQLRequestBody(query: "subscription { storeDidChange { authors } }"))
        #expect(response.failure == .operationNotAllowed)
        let operation = try fixture.service.operation(for: GraphQLRequestBody(query: "{ currentHistoryToken }"))
        guard case .single(let single) = await fixture.service.run(operation) else {
            Issue.record("a query should answer once")
            return
        }
        #expect(single.failure == nil)
    }
}
