import CarnetServer
import CarnetStore
import Foundation
import Testing

@testable import CarnetGraphQL

/// Many principals on one server: each token's root fields mean its own book, other books stay invisible, grants
/// and their revocation, disabled principals. Over the real router, through `buildApplication`.
@Suite("Principals and address books over HTTP")
struct PrincipalIsolationTests {
    static let save = """
        mutation Save($request: SaveRequestInput!) { save(request: $request) { contacts { id } } }
        """

    static func add(_ name: String, _ client: TestClient, token: String) async throws -> (status: UInt, id: String?) {
        let reply = try await client.graphql(
            save,
            variables: [
                "request": ["transactionAuthor": "t", "operations": [["addContact": ["givenName": name]]]]
            ], token: token)
        let save = (reply.json["data"] as? [String: Any])?["save"] as? [String: Any]
        let id = (save?["contacts"] as? [[String: Any]])?.first?["id"] as? String
        return (reply.status, id)
    }

    static func names(_ client: TestClient, token: String) async throws -> [String] {
        let reply = try await client.graphql("{ contacts(first: 50) { nodes { givenName } } }", token: token)
        let nodes = ((reply.json["data"] as? [String: Any])?["contacts"] as? [String: Any])?["nodes"]
        return (nodes as? [[String: Any]] ?? []).compactMap { $0["givenName"] as? String }
    }

    static func data(_ reply: TestClient.Reply) -> [String: Any] { reply.json["data"] as? [String: Any] ?? [:] }

    /// A persisted query's hash named another principal's query text: answered (on one's own book) once that
    /// principal had sent it, refused before, so the answer told whether someone had sent exactly that text (an
    /// outside fuzzer's find).
    @Test("Persisted queries are each principal's own")
    func persistedQueriesPerPrincipal() async throws {
        try await withRouter { server, client in
            let catalog = server.app.backend.catalog
            let aliceToken = try await server.token(for: try await catalog.createPrincipal(name: "alice"))
            let bobToken = try await server.token(for: try await catalog.createPrincipal(name: "bob"))
            let query = #"{ contacts(filter: {email: "secret@example.com"}) { totalCount } }"#
            let hash = GraphQLServiceCore.sha256(query)
            func send(_ text: String?, token: String) async throws -> String? {
                var object: [String: Any] = [
                    "extensions": ["persistedQuery": ["version": 1, "sha256Hash": hash]]
                ]
                if let text { object["query"] = text }
                let body = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
                let reply = try await client.send(
                    body: body, headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(token)")])
                let errors = reply.json["errors"] as? [[String: Any]]
                return (errors?.first?["extensions"] as? [String: Any])?["code"] as? String
            }
            #expect(try await send(query, token: aliceToken) == nil)
            #expect(try await send(nil, token: aliceToken) == nil)
            #expect(try await send(nil, token: bobToken) == "PERSISTED_QUERY_NOT_FOUND")
            #expect(try await send(query, token: bobToken) == nil)
            #expect(try await send(nil, token: bobToken) == nil)
        }
    }

    @Test("Each principal's token works on its own book; another principal's records and history do not resolve")
    func isolation() async throws {
        try await withRouter { server, client in
            let catalog = server.app.backend.catalog
            let alice = try await catalog.createPrincipal(name: "alice")
            let bob = try await catalog.createPrincipal(name: "bob")
            let aliceToken = try await server.token(for: alice)
            let bobToken = try await server.token(for: bob)
            let (status, id) = try await Self.add("Ada", client, token: aliceToken)
            #expect(status == 200)
            let adaID = try #require(id)
            #expect(try await Self.names(client, token: aliceToken) == ["Ada"])
            #expect(try await Self.names(client, token: bobToken).isEmpty)
            // The admin's book (carnet.sqlite) is a third book: empty too.
            #expect(try await Self.names(client, token: try await server.token()).isEmpty)
            let lookup = try await client.graphql(
                "query($id: ID!) { contact(id: $id) { id } node(id: $id) { id } }", variables: ["id": adaID],
                token: bobToken)
            #expect(Self.data(lookup)["contact"] is NSNull && Self.data(lookup)["node"] is NSNull)
            let aliceHistory = Self.data(try await client.graphql("{ currentHistoryToken }", token: aliceToken))
            let foreign = try await client.graphql(
                "query($t: String) { changeHistory(since: $t) { events { __typename ... on DropEverythingEvent { reason } } } }",
                variables: ["t": aliceHistory["currentHistoryToken"] ?? ""], token: bobToken)
            let events = (Self.data(foreign)["changeHistory"] as? [String: Any])?["events"] as? [[String: Any]]
            #expect(events?.first?["reason"] as? String == "OTHER_STORE")
            #expect(events?.count == 1)

            let me = Self.data(
                try await client.graphql(
                    "{ viewer { name kind isAdmin } addressBooks { id name access isDefault sharedBy { name } } }",
                    token: aliceToken))
            #expect((me["viewer"] as? [String: Any])?["name"] as? String == "alice")
            let books = me["addressBooks"] as? [[String: Any]] ?? []
            #expect(books.count == 1 && books.first?["id"] as? String == alice.defaultBookID)
            #expect(books.first?["access"] as? String == "OWNER" && books.first?["isDefault"] as? Bool == true)
        }
    }

    @Test("A read grant reads but cannot write; its revocation and a disabled principal stop the token")
    func grants() async throws {
        try await withRouter { server, client in
            let catalog = server.app.backend.catalog
            let alice = try await catalog.createPrincipal(name: "alice")
            let bob = try await catalog.createPrincipal(name: "bob")
            let aliceBook = try #require(alice.defaultBookID)
            let aliceToken = try await server.token(for: alice)
            _ = try await Self.add("Ada", client, token: aliceToken)
            // Bob cannot make a token for a book he has no grant on.
            await #expect(throws: StoreError.self) {
                _ = try await server.app.tokens.create(
                    name: "b", scopes: [.read], principalID: bob.id, bookIDs: [aliceBook])
            }
            try await catalog.share(bookID: aliceBook, with: bob.id, access: .read, by: alice.id)
            let bobToken = try await server.token(for: bob, books: [aliceBook])
            #expect(try await Self.names(client, token: bobToken) == ["Ada"])
            let refused = try await Self.add("Eve", client, token: bobToken)
            #expect(refused.status == 403 && refused.id == nil)
            #expect(try await Self.names(client, token: aliceToken) == ["Ada"])
            let listed = Self.data(
                try await client.graphql("{ addressBooks { id access sharedBy { name } } }", token: bobToken))
            let books = listed["addressBooks"] as? [[String: Any]] ?? []
            #expect(books.count == 1 && books.first?["access"] as? String == "READ")
            #expect((books.first?["sharedBy"] as? [String: Any])?["name"] as? String == "alice")

            try await catalog.unshare(bookID: aliceBook, with: bob.id, by: alice.id)
            #expect(try await client.graphql("{ __typename }", token: bobToken).status == 401)
            try await catalog.setDisabled(true, principal: alice.id)
            #expect(try await client.graphql("{ __typename }", token: aliceToken).status == 401)
            try await catalog.setDisabled(false, principal: alice.id)
            #expect(try await Self.names(client, token: aliceToken) == ["Ada"])
        }
    }

    @Test("addressBook(id:) and addressBooks read each book's own records; a book without a grant is null")
    func addressBookFields() async throws {
        try await withRouter { server, client in
            let catalog = server.app.backend.catalog
            let alice = try await catalog.createPrincipal(name: "alice")
            let bob = try await catalog.createPrincipal(name: "bob")
            let family = try await catalog.createBook(name: "Family", ownerID: alice.id)
            try await server.app.backend.books.withStore(family) { store in
                var request = SaveRequest(transactionAuthor: "t")
                var contact = Contact()
                contact.givenName = "Fam"
                request.add(contact)
                try await store.execute(request)
            }
            let aliceToken = try await server.token(for: alice)
            let bobToken = try await server.token(for: bob, [.read])
            _ = try await Self.add("Ada", client, token: aliceToken)
            let query = """
                query($id: ID!) { contacts { nodes { givenName } }
                  addressBook(id: $id) { name access isDefault contacts { nodes { givenName } } defaultContainer { id } } }
                """
            let reply = Self.data(try await client.graphql(query, variables: ["id": family.id], token: aliceToken))
            #expect(Self.givenNames(reply["contacts"]) == ["Ada"])
            let book = reply["addressBook"] as? [String: Any]
            #expect(book?["name"] as? String == "Family" && book?["access"] as? String == "OWNER")
            #expect(book?["isDefault"] as? Bool == false && Self.givenNames(book?["contacts"]) == ["Fam"])

            let hidden = Self.data(try await client.graphql(query, variables: ["id": family.id], token: bobToken))
            #expect(hidden["addressBook"] is NSNull && Self.givenNames(hidden["contacts"]).isEmpty)
            try await catalog.share(bookID: family.id, with: bob.id, access: .read, by: alice.id)
            let shared = Self.data(try await client.graphql(query, variables: ["id": family.id], token: bobToken))
            #expect(Self.givenNames((shared["addressBook"] as? [String: Any])?["contacts"]) == ["Fam"])

            let all = Self.data(
                try await client.graphql(
                    "{ addressBooks { name contacts { nodes { givenName } } } }", token: aliceToken))
            let books = all["addressBooks"] as? [[String: Any]] ?? []
            #expect(books.map { $0["name"] as? String } == ["Contacts", "Family"])
            #expect(books.map { Self.givenNames($0["contacts"]) } == [["Ada"], ["Fam"]])
        }
    }

    @Test("save and importVCards into another book need a write grant; without one the book does not exist")
    func writesToOtherBooks() async throws {
        try await withRouter { server, client in
            let catalog = server.app.backend.catalog
            let alice = try await catalog.createPrincipal(name: "alice")
            let bob = try await catalog.createPrincipal(name: "bob")
            let family = try await catalog.createBook(name: "Family", ownerID: alice.id)
            let aliceToken = try await server.token(for: alice)
            let bobToken = try await server.token(for: bob)
            let save = """
                mutation($book: ID, $r: SaveRequestInput!) { save(request: $r, addressBookId: $book) { contacts { id } } }
                """
            func request(_ name: String) -> [String: Any] {
                ["transactionAuthor": "t", "operations": [["addContact": ["givenName": name]]]]
            }
            let saved = try await client.graphql(
                save, variables: ["book": family.id, "r": request("Fam")], token: aliceToken)
            #expect(saved.status == 200 && saved.errorCodes.isEmpty)
            let imported = try await client.graphql(
                "mutation($book: ID, $d: String!) { importVCards(data: $d, addressBookId: $book) { added } }",
                variables: [
                    "book": family.id, "d": "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Vic\r\nN:;Vic;;;\r\nEND:VCARD\r\n",
                ],
                token: aliceToken)
            #expect(imported.errorCodes.isEmpty)
            let read = "query($id: ID!) { addressBook(id: $id) { contacts { nodes { givenName } } } }"
            let names = Self.data(try await client.graphql(read, variables: ["id": family.id], token: aliceToken))
            #expect(Set(Self.givenNames((names["addressBook"] as? [String: Any])?["contacts"])) == ["Fam", "Vic"])
            #expect(try await Self.names(client, token: aliceToken).isEmpty)

            let unknown = try await client.graphql(
                save, variables: ["book": "no-such-book", "r": request("Eve")], token: bobToken)
            let noGrant = try await client.graphql(
                save, variables: ["book": family.id, "r": request("Eve")], token: bobToken)
            #expect(unknown.errorCodes == ["RECORD_DOES_NOT_EXIST"] && noGrant.errorCodes == unknown.errorCodes)
            try await catalog.share(bookID: family.id, with: bob.id, access: .read, by: alice.id)
            let readOnly = try await client.graphql(
                save, variables: ["book": family.id, "r": request("Eve")], token: bobToken)
            #expect(readOnly.errorCodes == ["FORBIDDEN"])
            try await catalog.share(bookID: family.id, with: bob.id, access: .readWrite, by: alice.id)
            let granted = try await client.graphql(
                save, variables: ["book": family.id, "r": request("Bo")], token: bobToken)
            #expect(granted.errorCodes.isEmpty)
            let after = Self.data(try await client.graphql(read, variables: ["id": family.id], token: aliceToken))
            #expect(
                Set(Self.givenNames((after["addressBook"] as? [String: Any])?["contacts"])) == ["Fam", "Vic", "Bo"])
        }
    }

    static func givenNames(_ connection: Any?) -> [String] {
        let nodes = (connection as? [String: Any])?["nodes"] as? [[String: Any]] ?? []
        return nodes.compactMap { $0["givenName"] as? String }
    }
}
