import CarnetStore
import Synchronization
import Testing

@testable import CarnetGraphQL

/// An outside tester's find: a subscription's payloads were built and held outside the server's response budget,
/// so 30 unread full-sync subscriptions on one socket held 250 MiB against a 4 MiB budget. A payload now asks the
/// budget as it grows, as a query does; one refused is dropped, its bytes given back, and read again from the same
/// token later: the client gets it whole, and no event is lost.
@Suite("Subscription payloads within the response budget")
struct SubscriptionBudgetTests {
    @Test("A refused page is read again from its token, whole, once the budget has room")
    func refusedPageRetried() async throws {
        let fixture = try GraphQLFixture()
        var request = SaveRequest()
        for index in 0..<40 {
            var contact = Contact()
            contact.givenName = "P\(index)"
            contact.note = String(repeating: "n", count: 1_000)
            request.add(contact)
        }
        try await fixture.store.execute(request)
        // Refuses every growth past the free allowance three times, then grants; counts what it is asked.
        let asked = Mutex((calls: 0, refused: 0, releases: 0))
        var context = GraphQLRequestContext()
        context.admitResponseBytes = { bytes in
            asked.withLock { asked in
                asked.calls += 1
                if bytes == 0 {
                    asked.releases += 1
                    return true
                }
                guard asked.refused < 3 else { return true }
                asked.refused += 1
                return false
            }
        }
        let operation = try fixture.service.operation(
            for: GraphQLRequestBody(
                query: "subscription { changeHistory { token hasMore events { __typename "
                    + "... on AddContactEvent { contact { givenName note } } } } }"))
        guard case .stream(let stream) = await fixture.service.run(operation, context: context) else {
            Issue.record("not a stream")
            return
        }
        var iterator = stream.makeAsyncIterator()
        let first = try JSONParser.parse(try #require(await iterator.next()).body)
        #expect(first["errors"] == nil, "\(first.json.prefix(300))")
        let events = first["data"]?["changeHistory"]?["events"]?.arrayValue ?? []
        #expect(events.count == 41)
        #expect(events.compactMap { $0["contact"]?["givenName"]?.stringValue }.count == 40)
        let counts = asked.withLock { $0 }
        #expect(counts.refused == 3)
        #expect(counts.releases == 3, "each refused page gives its bytes back")
        // The page the client got is the one a fresh subscription reads: nothing was skipped.
        let again = try await fixture.run(
            "{ changeHistory(first: 1000) { events { __typename ... on AddContactEvent { contact { givenName } } } } }")
        #expect(again["data"]?["changeHistory"]?["events"]?.arrayValue?.count == 41)
    }

    /// A page past the response limit went out as a null page with the error while the token moved past its
    /// events: no replica heard of them (an outside tester's find). It is read again in smaller pages.
    @Test("A page past the response limit is sent in smaller pages, every event once")
    func pastResponseLimit() async throws {
        var limits = GraphQLLimits()
        limits.maxResponseBytes = 48 * 1024
        let fixture = try GraphQLFixture(limits: limits)
        var request = SaveRequest()
        for index in 0..<40 {
            var contact = Contact()
            contact.givenName = "P\(index)"
            contact.note = String(repeating: "n", count: 10_000)
            request.add(contact)
        }
        try await fixture.store.execute(request)
        let operation = try fixture.service.operation(
            for: GraphQLRequestBody(
                query: "subscription { changeHistory { token hasMore events { __typename "
                    + "... on AddContactEvent { contact { givenName note } } } } }"))
        guard case .stream(let stream) = await fixture.service.run(operation) else {
            Issue.record("not a stream")
            return
        }
        var names: [String] = []
        var payloads = 0
        for await response in stream {
            let payload = try JSONParser.parse(response.body)
            #expect(payload["errors"] == nil, "\(payload.json.prefix(300))")
            let page = try #require(payload["data"]?["changeHistory"])
            names += (page["events"]?.arrayValue ?? []).compactMap { $0["contact"]?["givenName"]?.stringValue }
            payloads += 1
            // A page that ends the history with nothing in it is not sent: stop once every contact came.
            if names.count >= 40 || payloads > 100 { break }
        }
        #expect(Set(names).count == 40 && names.count == 40, "\(names)")
        #expect(payloads > 1)

    }
}
