import CarnetStore
import Synchronization
import Testing

@testable import CarnetGraphQL

/// Collects the SQL the store runs.
final class SQLLog: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    func reset() { lines.withLock { $0 = [] } }
    var selects: [String] { lines.withLock { $0.filter { $0.hasPrefix("SELECT") } } }
}

@Suite("Planning: selections are key descriptors, relations load in batches")
struct PlanningTests {
    @Test("A query for givenName reads no other key")
    func onlySelectedKeys() async throws {
        let log = SQLLog()
        let fixture = try GraphQLFixture { $0.statementTrace = { log.append($0) } }
        let seeded = try await SampleData.seed(fixture.store)
        log.reset()
        _ = try await fixture.data(#"{ contact(id: "\#(seeded.contacts[1])") { givenName } }"#)
        let sql = log.selects.joined(separator: "\n")
        #expect(sql.contains("c.givenName"))
        for other in ["familyName", "labeledValue", "contactImage", "note", "birthday", "organizationName"] {
            #expect(!sql.contains(other), "read \(other): \(sql)")
        }
        log.reset()
        _ = try await fixture.data(
            #"query($skip: Boolean!) { contact(id: "\#(seeded.contacts[1])") { ...F phoneNumbers @skip(if: $skip) { value } } } fragment F on Contact { familyName }"#,
            ["skip": true])
        let second = log.selects.joined(separator: "\n")
        #expect(second.contains("c.familyName") && !second.contains("labeledValue") && !second.contains("c.givenName"))
        log.reset()
        _ = try await fixture.data(#"{ contact(id: "\#(seeded.contacts[1])") { emailAddresses { value } } }"#)
        #expect(log.selects.joined().contains("lv.kind = 2"))
    }

    @Test("No N+1: a page of contacts with groups and their members costs the same queries for 2 or 40 contacts")
    func noNPlusOne() async throws {
        let log = SQLLog()
        let fixture = try GraphQLFixture { $0.statementTrace = { log.append($0) } }
        var request = SaveRequest()
        var groups: [Group] = []
        for index in 0..<5 {
            let group = Group(name: "G\(index)")
            groups.append(group)
            request.add(group)
        }
        for index in 0..<40 {
            var contact = Contact()
            contact.givenName = "C\(index)"
            contact.emailAddresses = [LabeledValue(label: nil, value: "c\(index)@example.com")]
            request.add(contact)
            request.addMember(contact.identifier, toGroup: groups[index % 5].identifier)
            request.addMember(contact.identifier, toGroup: groups[(index + 1) % 5].identifier)
        }
        try await fixture.store.execute(request)
        func queries(first: Int) async throws -> Int {
            log.reset()
            let data = try await fixture.data(
                """
                { contacts(first: \(first)) { nodes { givenName emailAddresses { value } container { name }
                    groups { name memberCount members(first: 3) { givenName groups { name } } } } } }
                """)
            #expect(data["contacts"]?["nodes"]?.arrayValue?.count == first)
            return log.selects.count
        }
        let small = try await queries(first: 2)
        let large = try await queries(first: 40)
        // A fixed number per level: the larger page needs no more queries (it may need fewer: relations it
        // already loaded are cached for the request).
        #expect(large <= small, "\(small) vs \(large) queries")
        #expect(small <= 14)
        log.reset()
        _ = try await fixture.data("{ groups { name members(first: 20) { givenName emailAddresses { value } } } }")
        #expect(log.selects.count <= 7)
    }
}
