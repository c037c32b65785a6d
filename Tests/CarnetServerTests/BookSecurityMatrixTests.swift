import CarnetServer
import CarnetStore
import Foundation
import HummingbirdWSClient
import Testing

/// A principal without a grant learns nothing of another's books, over HTTP/1.1, HTTP/2 and WebSocket: every
/// probe that names another principal's record or book gets exactly the answer the same probe gets for an id that
/// names nothing, and no byte of the other book's data.
@Suite("Address book isolation matrix")
struct BookSecurityMatrixTests {
    /// One request naming a target (`$id`), and the kind of id that stands for "nothing".
    struct Probe: Sendable {
        var name: String
        var query: String
        var target: String
    }

    struct Fixture: Sendable {
        var probes: [Probe]
        var bobToken: String
    }

    static let secret = "SECRET"
    static let card = "BEGIN:VCARD\\r\\nVERSION:3.0\\r\\nFN:X\\r\\nN:;X;;;\\r\\nEND:VCARD\\r\\n"

    /// Alice's default book holds a contact, its duplicate and a group, her second book a contact and its duplicate;
    /// Bob has a token and no grant.
    static func fixture(_ server: TestServer) async throws -> Fixture {
        let catalog = server.app.backend.catalog
        let alice = try await catalog.createPrincipal(name: "alice")
        let bob = try await catalog.createPrincipal(name: "bob")
        let hidden = try await catalog.createBook(name: "\(secret) book", ownerID: alice.id)
        let aliceBookID = try #require(alice.defaultBookID)
        let aliceBook = try #require(try await catalog.book(id: aliceBookID))
        var ids: [String] = []
        for book in [aliceBook, hidden] {
            let added = try await server.app.backend.books.withStore(book) { store in
                var request = SaveRequest(transactionAuthor: "alice")
                var contact = Contact()
                contact.givenName = "\(Self.secret) contact"
                contact.emailAddresses = [LabeledValue(label: ContactLabel.home, value: "secret@example.com")]
                request.add(contact)
                // A duplicate of it, so `duplicateCandidates` has a secret to leak.
                var twin = Contact()
                twin.givenName = contact.givenName
                twin.emailAddresses = contact.emailAddresses
                request.add(twin)
                let group = Group(name: "\(Self.secret) group")
                request.add(group)
                request.addMember(contact.identifier, toGroup: group.identifier)
                try await store.execute(request)
                return [contact.identifier, group.identifier, try await store.defaultContainer().identifier]
            }
            ids += added
        }
        let (contact, group, container) = (ids[0], ids[1], ids[2])
        let bobToken = try await server.token(for: bob)
        let probes: [Probe] = [
            Probe(name: "node contact", query: "query($id: ID!) { node(id: $id) { id } }", target: contact),
            Probe(name: "node group", query: "query($id: ID!) { node(id: $id) { id } }", target: group),
            Probe(name: "node container", query: "query($id: ID!) { node(id: $id) { id } }", target: container),
            Probe(
                name: "contact", query: "query($id: ID!) { contact(id: $id) { id givenName vCard } }", target: contact),
            Probe(name: "group", query: "query($id: ID!) { group(id: $id) { id name } }", target: group),
            Probe(name: "container", query: "query($id: ID!) { container(id: $id) { id } }", target: container),
            Probe(
                name: "groups of container", query: "query($id: ID) { groups(containerId: $id) { name } }",
                target: container),
            Probe(
                name: "addressBook default",
                query: "query($id: ID!) { addressBook(id: $id) { id name contacts { nodes { givenName } } } }",
                target: aliceBookID),
            Probe(
                name: "addressBook duplicates",
                query:
                    "query($id: ID!) { addressBook(id: $id) { duplicateCandidates { totalCount nodes { contacts { givenName } } } } }",
                target: aliceBookID),
            Probe(
                name: "addressBook other",
                query: "query($id: ID!) { addressBook(id: $id) { id currentHistoryToken groups { name } } }",
                target: hidden.id),
            Probe(
                name: "save into book",
                query:
                    #"mutation($id: ID) { save(request: {operations: [{addContact: {givenName: "x"}}]}, addressBookId: $id) { contacts { id } } }"#,
                target: hidden.id),
            Probe(
                name: "import into book",
                query: #"mutation($id: ID) { importVCards(data: "\#(card)", addressBookId: $id) { added } }"#,
                target: hidden.id),
            Probe(
                name: "delete foreign contact",
                query:
                    "mutation($id: ID!) { save(request: {operations: [{deleteContact: {id: $id}}]}) { deletedContactIds } }",
                target: contact),
            Probe(
                name: "update foreign contact",
                query:
                    #"mutation($id: ID!) { save(request: {operations: [{updateContact: {id: $id, givenName: "x"}}]}) { revision } }"#,
                target: contact),
            Probe(
                name: "add member to foreign group",
                query:
                    "mutation($id: ID!) { save(request: {operations: [{addMember: {contactId: $id, groupId: $id}}]}) { revision } }",
                target: group),
            Probe(
                name: "rename book", query: #"mutation($id: ID!) { renameAddressBook(id: $id, name: "x") { id } }"#,
                target: hidden.id),
            Probe(name: "delete book", query: "mutation($id: ID!) { deleteAddressBook(id: $id) }", target: hidden.id),
            Probe(
                name: "share book to self",
                query:
                    "mutation($id: ID!) { shareAddressBook(id: $id, principalId: \"\(bob.id)\", access: READ_WRITE) { id } }",
                target: hidden.id),
            Probe(
                name: "unshare book",
                query: "mutation($id: ID!) { unshareAddressBook(id: $id, principalId: \"\(bob.id)\") }",
                target: hidden.id),
            Probe(
                name: "token for foreign book",
                query:
                    #"mutation($id: ID!) { createAccessToken(name: "x", scopes: [READ], addressBookIds: [$id]) { id } }"#,
                target: hidden.id),
        ]
        return Fixture(probes: probes, bobToken: bobToken)
    }

    /// A response with the probe's id (and the stand-in's) replaced by one placeholder.
    static func normalized(_ text: String, _ id: String) -> String { text.replacingOccurrences(of: id, with: "<id>") }

    static func check(_ probe: Probe, real: String, stranger: String, unknown: String, transport: String) {
        #expect(!real.contains(secret), "\(transport) \(probe.name) leaked: \(real)")
        #expect(
            normalized(real, probe.target) == normalized(stranger, unknown),
            "\(transport) \(probe.name): \(real) vs \(stranger)")
    }

    @Test(
        "HTTP/1.1 and HTTP/2: another principal's records and books answer as ones that do not exist",
        arguments: [false, true])
    func overHTTP(http2: Bool) async throws {
        try await withServer { server in
            let fixture = try await Self.fixture(server)
            try await TestClient.with(server, http2: http2) { client in
                for probe in fixture.probes {
                    let unknown = probe.target.count == 36 ? UUID().uuidString : "no-such-record"
                    let real = try await client.graphql(
                        probe.query, variables: ["id": probe.target], token: fixture.bobToken)
                    let stranger = try await client.graphql(
                        probe.query, variables: ["id": unknown], token: fixture.bobToken)
                    #expect(real.status == stranger.status, "\(probe.name)")
                    Self.check(
                        probe, real: real.body, stranger: stranger.body, unknown: unknown,
                        transport: http2 ? "HTTP/2" : "HTTP/1.1")
                }
                let listing = try await client.graphql(
                    "{ contacts { nodes { givenName } } groups { name } addressBooks { name } }",
                    token: fixture.bobToken)
                #expect(!listing.body.contains(Self.secret))
            }
        }
    }

    @Test("WebSocket: the same probes as operations over one graphql-transport-ws socket")
    func overWebSocket() async throws {
        try await withServer { server in
            let fixture = try await Self.fixture(server)
            var requests: [(id: String, query: String, variable: String)] = []
            var unknowns: [String] = []
            for (index, probe) in fixture.probes.enumerated() {
                let unknown = probe.target.count == 36 ? UUID().uuidString : "no-such-record"
                unknowns.append(unknown)
                requests.append(("r\(index)", probe.query, probe.target))
                requests.append(("u\(index)", probe.query, unknown))
            }
            let answers = try await Self.runOverSocket(server, token: fixture.bobToken, requests)
            for (index, probe) in fixture.probes.enumerated() {
                let real = (answers["r\(index)"] ?? "").replacingOccurrences(of: "\"r\(index)\"", with: "\"_\"")
                let stranger = (answers["u\(index)"] ?? "").replacingOccurrences(of: "\"u\(index)\"", with: "\"_\"")
                #expect(!real.isEmpty, "\(probe.name) got no answer")
                Self.check(probe, real: real, stranger: stranger, unknown: unknowns[index], transport: "WebSocket")
            }
        }
    }

    /// Sends every request as an operation and collects each one's first answer (`next` or `error`).
    static func runOverSocket(
        _ server: TestServer, token: String, _ requests: [(id: String, query: String, variable: String)]
    ) async throws -> [String: String] {
        let (answers, sink) = AsyncStream<(String, String)>.makeStream()
        let socket = Task {
            try await WebSocketTestClient.connect(server, token: token) { messages, outbound in
                for request in requests {
                    let payload: [String: Any] = ["query": request.query, "variables": ["id": request.variable]]
                    let message: [String: Any] = ["type": "subscribe", "id": request.id, "payload": payload]
                    let text = String(decoding: try JSONSerialization.data(withJSONObject: message), as: UTF8.self)
                    try await outbound.writeTextMessage(text)
                }
                while let message = try await messages.next() {
                    guard case .text(let text) = message,
                        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                        let id = object["id"] as? String, object["type"] as? String != "complete"
                    else { continue }
                    sink.yield((id, text))
                }
            }
        }
        var collected: [String: String] = [:]
        for await (id, text) in answers where collected[id] == nil {
            collected[id] = text
            if collected.count == requests.count { break }
        }
        socket.cancel()
        return collected
    }
}
