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
        // After a full sync the subscription leaves none of the client's own events out: the full sync may have
        // reached the client after its own save, and wiped it.
        try await save(fixture, author: "me", name: "Mine")
        try await save(fixture, author: "other", name: "Theirs")
        let live = try JSONParser.parse(try #require(await iterator.next()).body)
        #expect(
            live["data"]?["changeHistory"]?["events"]?.json
                == #"[{"__typename":"AddContactEvent","author":"me","contact":{"givenName":"Mine"}},{"__typename":"AddContactEvent","author":"other","contact":{"givenName":"Theirs"}}]"#
        )
    }

    @Test("changeHistory from a token leaves out the excluded author's later events, not its earlier ones")
    func excludedFromToken() async throws {
        let fixture = try GraphQLFixture()
        let token = try await fixture.store.currentHistoryToken()
        try await save(fixture, author: "me", name: "Before the subscription")
        let stream = try await stream(
            fixture,
            """
            subscription { changeHistory(since: "\(token)", excludedAuthors: ["me"]) { token events { __typename
              ... on AddContactEvent { author contact { givenName } } } } }
            """)
        var iterator = stream.makeAsyncIterator()
        let catchUp = try JSONParser.parse(try #require(await iterator.next()).body)
        #expect(
            catchUp["data"]?["changeHistory"]?["events"]?.json
                == #"[{"__typename":"AddContactEvent","author":"me","contact":{"givenName":"Before the subscription"}}]"#
        )
        try await save(fixture, author: "me", name: "Mine")
        try await save(fixture, author: "other", name: "Theirs")
        let live = try JSONParser.parse(try #require(await iterator.next()).body)
        #expect(
            live["data"]?["changeHistory"]?["events"]?.json
                == #"[{"__typename":"AddContactEvent","author":"other","contact":{"givenName":"Theirs"}}]"#)
    }

    /// Saves what `build` adds to a request by `author`.
    func save(_ fixture: GraphQLFixture, author: String, _ build: (inout SaveRequest) -> Void) async throws {
        var request = SaveRequest(transactionAuthor: author)
        build(&request)
        try await fixture.store.execute(request)
    }

    /// Two contacts to link, named One and Other.
    static func oneAndOther() -> (Contact, Contact) {
        var (one, other) = (Contact(), Contact())
        one.givenName = "One"
        other.givenName = "Other"
        return (one, other)
    }

    /// A `changeHistory` subscription from now that excludes the author "me", past its first payload (no events).
    func subscribeExcludingMe(_ fixture: GraphQLFixture, groups: Bool = false, events: String) async throws
        -> AsyncStream<GraphQLResponse>.Iterator
    {
        let token = try await fixture.store.currentHistoryToken()
        var iterator = try await stream(
            fixture,
            """
            subscription { changeHistory(since: "\(token)", includeGroupChanges: \(groups), excludedAuthors: ["me"]) {
              events { __typename \(events) } } }
            """
        ).makeAsyncIterator()
        _ = try #require(await iterator.next())
        return iterator
    }

    @Test("An excluded author's change to a record the subscription sent is delivered all the same")
    func excludedAfterSent() async throws {
        let fixture = try GraphQLFixture()
        var iterator = try await subscribeExcludingMe(
            fixture,
            events:
                "... on AddContactEvent { author contact { givenName } } ... on DeleteContactEvent { author contactId }"
        )
        var theirs = Contact()
        theirs.givenName = "Theirs"
        try await save(fixture, author: "other") { $0.add(theirs) }
        let sent = try JSONParser.parse(try #require(await iterator.next()).body)
        #expect(sent["data"]?["changeHistory"]?["events"]?[0]?["contact"]?["givenName"] == .string("Theirs"))
        // The client deletes the contact and applies that at once; the payload above may reach it only after, and
        // would bring the contact back if its own delete were left out.
        try await save(fixture, author: "me") { $0.delete(contactWithIdentifier: theirs.identifier) }
        try await save(fixture, author: "me", name: "Mine, never sent")
        try await save(fixture, author: "other", name: "Later")
        let next = try JSONParser.parse(try #require(await iterator.next()).body)
        #expect(
            next["data"]?["changeHistory"]?["events"]?.json
                == #"[{"__typename":"DeleteContactEvent","author":"me","contactId":"\#(theirs.identifier)"},{"__typename":"AddContactEvent","author":"other","contact":{"givenName":"Later"}}]"#
        )
    }

    @Test("A membership sent makes its contact's and group's deletes by an excluded author delivered")
    func excludedAfterMembershipSent() async throws {
        let fixture = try GraphQLFixture()
        var contact = Contact()
        contact.givenName = "Member"
        let group = Group(name: "Friends")
        try await save(fixture, author: "other") {
            $0.add(contact)
            $0.add(group)
        }
        var iterator = try await subscribeExcludingMe(
            fixture, groups: true,
            events: """
                ... on AddMemberToGroupEvent { author contactId } ... on DeleteContactEvent { author contactId }
                ... on DeleteGroupEvent { author groupId } ... on AddGroupEvent { author }
                """)
        try await save(fixture, author: "other") { $0.addMember(contact.identifier, toGroup: group.identifier) }
        let sent = try JSONParser.parse(try #require(await iterator.next()).body)
        #expect(sent["data"]?["changeHistory"]?["events"]?[0]?["__typename"] == .string("AddMemberToGroupEvent"))
        // The client deletes the contact and the group and applies that at once: a late membership payload would
        // leave it a membership that no event of its own (excluded) would end.
        try await save(fixture, author: "me") {
            $0.delete(contactWithIdentifier: contact.identifier)
            $0.delete(groupWithIdentifier: group.identifier)
        }
        try await save(fixture, author: "other") { $0.add(Group(name: "Later")) }
        let next = try JSONParser.parse(try #require(await iterator.next()).body)
        #expect(
            next["data"]?["changeHistory"]?["events"]?.json
                == #"[{"__typename":"DeleteContactEvent","author":"me","contactId":"\#(contact.identifier)"},{"__typename":"DeleteGroupEvent","author":"me","groupId":"\#(group.identifier)"},{"__typename":"AddGroupEvent","author":"other"}]"#
        )
    }

    @Test("A unified contact sent is one whose end by an excluded author is delivered")
    func excludedAfterUnifiedSent() async throws {
        let fixture = try GraphQLFixture()
        let (one, other) = Self.oneAndOther()
        try await save(fixture, author: "other") {
            $0.add(one)
            $0.add(other)
        }
        var iterator = try await subscribeExcludingMe(
            fixture,
            events: """
                ... on AddContactEvent { contactId contact { isUnified } }
                ... on UpdateContactEvent { contactId contact { isUnified } } ... on DeleteContactEvent { author contactId }
                """)
        try await save(fixture, author: "other") {
            $0.link(contactsWithIdentifiers: [one.identifier, other.identifier])
        }
        let sent = try JSONParser.parse(try #require(await iterator.next()).body)
        let events = sent["data"]?["changeHistory"]?["events"]?.arrayValue ?? []
        let unified = try #require(
            events.first { $0["contact"]?["isUnified"] == .bool(true) }?["contactId"]?.stringValue)
        // The client deletes a member, which ends the unified contact, and applies that at once: the payload above,
        // arriving after, would bring the unified contact back.
        try await save(fixture, author: "me") { $0.delete(contactWithIdentifier: one.identifier) }
        try await save(fixture, author: "other", name: "Later")
        let next = try JSONParser.parse(try #require(await iterator.next()).body)
        let deleted = (next["data"]?["changeHistory"]?["events"]?.arrayValue ?? []).filter {
            $0["__typename"] == .string("DeleteContactEvent")
        }
        #expect(deleted.contains { $0["contactId"] == .string(unified) && $0["author"] == .string("me") }, "\(next)")
    }

    @Test("A unified contact sent makes every member's change by an excluded author delivered")
    func excludedAfterUnifiedMemberSent() async throws {
        let fixture = try GraphQLFixture()
        var (one, other) = Self.oneAndOther()
        try await save(fixture, author: "other") {
            $0.add(one)
            $0.add(other)
            $0.link(contactsWithIdentifiers: [one.identifier, other.identifier])
        }
        var iterator = try await subscribeExcludingMe(
            fixture, events: "... on UpdateContactEvent { author contactId contact { isUnified } }")
        one.note = "theirs"
        try await save(fixture, author: "other") { $0.update(one) }
        let sent = try JSONParser.parse(try #require(await iterator.next()).body)
        let unified = try #require(
            (sent["data"]?["changeHistory"]?["events"]?.arrayValue ?? []).first {
                $0["contact"]?["isUnified"] == .bool(true)
            }?["contactId"]?.stringValue)
        // The payload carried the unified contact, so the whole of it: the client's own change to the other member,
        // applied at once, would be undone by that payload arriving late.
        other.note = "mine"
        try await save(fixture, author: "me") { $0.update(other) }
        try await save(fixture, author: "other", name: "Later")
        let next = try JSONParser.parse(try #require(await iterator.next()).body)
        let mine = (next["data"]?["changeHistory"]?["events"]?.arrayValue ?? []).filter {
            $0["author"] == .string("me")
        }
        #expect(mine.map { $0["contactId"] } == [.string(unified)], "\(next)")
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
