import CarnetServer
import CarnetStore
import Foundation
import HummingbirdWSClient
import Testing

/// Access that a management mutation takes away ends what it ends at once, and what a token may not do it cannot
/// do through a mutation's answer either. Over a real TLS listener, wss and HTTP clients.
@Suite("Access taken away")
struct AccessNarrowingTests {
    static func data(_ reply: TestClient.Reply) -> [String: Any] { reply.json["data"] as? [String: Any] ?? [:] }

    /// The grant withdrawn and given back within a second escaped the subscription's periodic check: it went on,
    /// with the commits made meanwhile (an outside tester's find).
    @Test("A grant withdrawn and given back at once still ends the grantee's subscription with FORBIDDEN")
    func withdrawnAndGivenBack() async throws {
        try await withServer { server in
            let catalog = server.app.backend.catalog
            let alice = try await catalog.createPrincipal(name: "alice")
            let bob = try await catalog.createPrincipal(name: "bob")
            let family = try await catalog.createBook(name: "Family", ownerID: alice.id)
            try await catalog.share(bookID: family.id, with: bob.id, access: .read, by: alice.id)
            let aliceToken = try await server.token(for: alice)
            let bobToken = try await server.token(for: bob, [.read])
            let (events, sink) = AsyncStream<String>.makeStream()
            let socket = Task {
                try await WebSocketTestClient.connect(server, token: bobToken) { messages, outbound in
                    let query = "subscription($b: ID) { changeHistory(addressBookId: $b) { events { __typename } } }"
                    try await outbound.writeTextMessage(
                        #"{"type":"subscribe","id":"shared","payload":{"query":"\#(query)","variables":{"b":"\#(family.id)"}}}"#
                    )
                    while let message = try await messages.next() {
                        guard case .text(let text) = message else { continue }
                        sink.yield(text)
                    }
                    sink.finish()
                }
            }
            var iterator = events.makeAsyncIterator()
            #expect((await iterator.next() ?? "").contains(#""type":"next","id":"shared""#))
            try await TestClient.with(server) { client in
                let variables: [String: Any] = ["b": family.id, "p": bob.id]
                let unshared = try await client.graphql(
                    "mutation($b: ID!, $p: ID!) { unshareAddressBook(id: $b, principalId: $p) }", variables: variables,
                    token: aliceToken)
                #expect(Self.data(unshared)["unshareAddressBook"] as? Bool == true, "\(unshared.body)")
                // A commit while Bob has no grant, then the grant back, well within the periodic check's second.
                try await server.app.backend.books.withStore(family) { store in
                    var request = SaveRequest(transactionAuthor: "alice-app")
                    request.add(contact("Secret"))
                    try await store.execute(request)
                }
                let shared = try await client.graphql(
                    "mutation($b: ID!, $p: ID!) { shareAddressBook(id: $b, principalId: $p, access: READ) { id } }",
                    variables: variables, token: aliceToken)
                #expect(shared.status == 200, "\(shared.body)")
            }
            let ended = await iterator.next() ?? ""
            #expect(ended.contains(#""type":"error","id":"shared""#) && ended.contains("FORBIDDEN"), "\(ended)")
            socket.cancel()
        }
    }

    /// A write-only token read every contact and the whole history through `renameAddressBook { contacts }`, and a
    /// save's `contacts` showed every key of any contact it named (an outside tester's find).
    @Test("A token without the read scope sees what its mutations did, never the book's contents")
    func writeOnlyAnswers() async throws {
        try await withRouter { server, client in
            let catalog = server.app.backend.catalog
            let alice = try await catalog.createPrincipal(name: "alice")
            let book = try #require(alice.defaultBookID)
            let writer = try await server.token(for: alice, [.write])
            let renamed = try await client.graphql(
                #"mutation($b: ID!) { renameAddressBook(id: $b, name: "Renamed") { id name contacts(first: 5) { totalCount } } }"#,
                variables: ["b": book], token: writer)
            #expect(renamed.status == 403 && renamed.errorCodes == ["FORBIDDEN"], "\(renamed.body)")
            #expect(renamed.body.contains("renameAddressBook.contacts"), "\(renamed.body)")
            #expect(try await catalog.book(id: book)?.name != "Renamed", "nothing ran")
            let metadata = try await client.graphql(
                #"mutation($b: ID!) { renameAddressBook(id: $b, name: "Renamed") { id name access __typename } }"#,
                variables: ["b": book], token: writer)
            #expect(metadata.status == 200 && metadata.errorCodes.isEmpty, "\(metadata.body)")

            let add: [String: Any] = [
                "request": ["operations": [["addContact": ["givenName": "Ada", "familyName": "Lovelace"]]]]
            ]
            let reading = try await client.graphql(
                "mutation($request: SaveRequestInput!) { save(request: $request) { contacts { id givenName } } }",
                variables: add, token: writer)
            #expect(reading.status == 403 && reading.errorCodes == ["FORBIDDEN"], "\(reading.body)")
            let saved = try await client.graphql(
                "mutation($request: SaveRequestInput!) { save(request: $request) { contacts { id revision } historyToken } }",
                variables: add, token: writer)
            let contacts = (Self.data(saved)["save"] as? [String: Any])?["contacts"] as? [[String: Any]]
            #expect(saved.status == 200 && contacts?.first?["id"] is String, "\(saved.body)")
            let imported = try await client.graphql(
                #"mutation { importVCards(data: "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bo\r\nN:;Bo;;;\r\nEND:VCARD\r\n") { added warnings { message } } }"#,
                token: writer)
            #expect((Self.data(imported)["importVCards"] as? [String: Any])?["added"] as? Int == 1, "\(imported.body)")
            let total = try await server.app.backend.books.withStore(try #require(try await catalog.book(id: book))) {
                try await $0.contactCount()
            }
            #expect(total == 2, "the refused save wrote nothing")
        }
    }

    /// An import already writing ran to its end after its caller lost access (an outside tester's find). The
    /// revocation comes first in the same document, so the import meets it at its first check, deterministically.
    @Test("An import whose token was revoked stops with FORBIDDEN and writes nothing more")
    func importAfterRevocation() async throws {
        try await withRouter { server, client in
            let (token, record) = try await server.app.tokens.create(name: "i", scopes: [.read, .write])
            let reply = try await client.graphql(
                #"mutation($t: ID!) { revokeAccessToken(id: $t) importVCards(data: "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bo\r\nN:;Bo;;;\r\nEND:VCARD\r\n") { added } }"#,
                variables: ["t": record.id], token: token)
            // The import's result is non-null: its error takes the whole `data` with it.
            #expect(reply.json["data"] is NSNull && reply.errorCodes == ["FORBIDDEN"], "\(reply.body)")
            #expect(try await server.app.backend.catalog.accessToken(id: record.id)?.token.revoked != nil)
            let extensions = (reply.json["errors"] as? [[String: Any]])?.first?["extensions"] as? [String: Any]
            #expect(extensions?["added"] as? Int == 0, "\(reply.body)")
            #expect(try await server.store.contactCount() == 0)
        }
    }
}
