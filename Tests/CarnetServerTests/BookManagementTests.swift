import CarnetServer
import CarnetStore
import Foundation
import Testing

/// The management mutations over the real router: books, grants, tokens, principals, and who may use them.
@Suite("Managing books, tokens and principals over GraphQL")
struct BookManagementTests {
    typealias Reply = TestClient.Reply

    static func value(_ reply: Reply, _ key: String) -> Any? { (reply.json["data"] as? [String: Any])?[key] }

    /// A client that retried a createAddressBook whose selection failed made a second book: nothing said the first
    /// was made.
    @Test("An error after a management mutation's write says it committed; one before it does not")
    func committedFlag() async throws {
        try await withRouter { server, client in
            let token = try await server.token()
            let failing = try await client.graphql(
                #"mutation { createAddressBook(name: "Work") { id contacts(first: 5000) { totalCount } } }"#,
                token: token)
            #expect(failing.errorCodes == ["BAD_USER_INPUT"], "\(failing.body)")
            let errors = failing.json["errors"] as? [[String: Any]]
            #expect((errors?.first?["extensions"] as? [String: Any])?["committed"] as? Bool == true)
            let books = try await client.graphql("{ addressBooks { name } }", token: token)
            let names = (Self.value(books, "addressBooks") as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(names?.filter { $0 == "Work" }.count == 1)
            // Refused before writing: no flag.
            let refused = try await client.graphql(
                #"mutation { renameAddressBook(id: "nope", name: "X") { id } }"#, token: token)
            let refusal = (refused.json["errors"] as? [[String: Any]])?.first?["extensions"] as? [String: Any]
            #expect(refused.errorCodes == ["RECORD_DOES_NOT_EXIST"] && refusal?["committed"] == nil)
        }
    }

    @Test("An owner creates, renames, shares, unshares and deletes a book; a default book stays")
    func books() async throws {
        try await withRouter { server, client in
            let catalog = server.app.backend.catalog
            let alice = try await catalog.createPrincipal(name: "alice")
            let bob = try await catalog.createPrincipal(name: "bob")
            let aliceToken = try await server.token(for: alice)
            let bobToken = try await server.token(for: bob, [.read])
            let created = try await client.graphql(
                #"mutation { createAddressBook(name: "Work") { id name access contacts { totalCount } } }"#,
                token: aliceToken)
            let book = try #require(Self.value(created, "createAddressBook") as? [String: Any])
            let id = try #require(book["id"] as? String)
            #expect(book["access"] as? String == "OWNER")
            let renamed = try await client.graphql(
                "mutation($id: ID!) { renameAddressBook(id: $id, name: \"Office\") { name } }", variables: ["id": id],
                token: aliceToken)
            #expect((Self.value(renamed, "renameAddressBook") as? [String: Any])?["name"] as? String == "Office")
            // Bob may not rename what he cannot see: the book does not exist for him.
            let bobWriter = try await server.token(for: bob)
            let rename = "mutation($id: ID!) { renameAddressBook(id: $id, name: \"Mine\") { name } }"
            let foreign = try await client.graphql(rename, variables: ["id": id], token: bobWriter)
            let unknown = try await client.graphql(rename, variables: ["id": "no-such-book"], token: bobWriter)
            #expect(foreign.errorCodes == ["RECORD_DOES_NOT_EXIST"] && unknown.errorCodes == foreign.errorCodes)
            #expect(
                foreign.json["data"] is NSNull
                    && foreign.body == unknown.body.replacingOccurrences(of: "no-such-book", with: id))
            let shared = try await client.graphql(
                "mutation($id: ID!, $p: ID!) { shareAddressBook(id: $id, principalId: $p, access: READ) { id } }",
                variables: ["id": id, "p": bob.id], token: aliceToken)
            #expect(shared.errorCodes.isEmpty)
            let seen = try await client.graphql(
                "query($id: ID!) { addressBook(id: $id) { name access sharedBy { name } } }", variables: ["id": id],
                token: bobToken)
            let bobView = Self.value(seen, "addressBook") as? [String: Any]
            #expect(bobView?["access"] as? String == "READ")
            #expect((bobView?["sharedBy"] as? [String: Any])?["name"] as? String == "alice")
            let unshared = try await client.graphql(
                "mutation($id: ID!, $p: ID!) { unshareAddressBook(id: $id, principalId: $p) }",
                variables: ["id": id, "p": bob.id], token: aliceToken)
            #expect(Self.value(unshared, "unshareAddressBook") as? Bool == true)
            let gone = try await client.graphql(
                "query($id: ID!) { addressBook(id: $id) { name } }", variables: ["id": id], token: bobToken)
            #expect(Self.value(gone, "addressBook") is NSNull)

            let path = try server.app.dataFolder.bookStores.path(of: try #require(try await catalog.book(id: id)))
            #expect(FileManager.default.fileExists(atPath: path))
            let deleted = try await client.graphql(
                "mutation($id: ID!) { deleteAddressBook(id: $id) }", variables: ["id": id], token: aliceToken)
            #expect(Self.value(deleted, "deleteAddressBook") as? String == id)
            #expect(!FileManager.default.fileExists(atPath: path))
            let keep = try await client.graphql(
                "mutation($id: ID!) { deleteAddressBook(id: $id) }",
                variables: ["id": try #require(alice.defaultBookID)], token: aliceToken)
            #expect(keep.errorCodes == ["FORBIDDEN"])
        }
    }

    @Test("A token makes tokens with no more scopes or books than its own, and revokes only its principal's")
    func tokens() async throws {
        try await withRouter { server, client in
            let catalog = server.app.backend.catalog
            let alice = try await catalog.createPrincipal(name: "alice")
            let bob = try await catalog.createPrincipal(name: "bob")
            let aliceBook = try #require(alice.defaultBookID)
            let whole = try await server.app.tokens.create(name: "a", scopes: [.read, .write], principalID: alice.id)
            let create = """
                mutation($s: [AccessScope!]!, $b: [ID!]) { createAccessToken(name: "new", scopes: $s, addressBookIds: $b) { token id scopes } }
                """
            let made = try await client.graphql(
                create, variables: ["s": ["READ"], "b": [aliceBook]], token: whole.token)
            let created = try #require(Self.value(made, "createAccessToken") as? [String: Any])
            let newToken = try #require(created["token"] as? String)
            #expect(created["scopes"] as? [String] == ["READ"])
            #expect(try await client.graphql("{ viewer { name } }", token: newToken).status == 200)
            // The read-only, book-limited token cannot widen itself or manage books.
            // A token that could do nothing is a mistake, said as such rather than made.
            let powerless = try await client.graphql(create, variables: ["s": []], token: whole.token)
            #expect(powerless.errorCodes == ["VALIDATION_FAILED"])
            let wider = try await client.graphql(create, variables: ["s": ["READ", "WRITE"]], token: newToken)
            #expect(wider.status == 403 || wider.errorCodes == ["FORBIDDEN"])
            let limitedWriter = try await server.token(for: alice, books: [aliceBook])
            let unlimited = try await client.graphql(create, variables: ["s": ["READ"]], token: limitedWriter)
            #expect(unlimited.errorCodes == ["FORBIDDEN"])
            let manage = try await client.graphql(
                #"mutation { createAddressBook(name: "X") { id } }"#, token: limitedWriter)
            #expect(manage.errorCodes == ["FORBIDDEN"])

            let bobToken = try await server.token(for: bob)
            let id = try #require(created["id"] as? String)
            let revoke = "mutation($id: ID!) { revokeAccessToken(id: $id) }"
            let byBob = try await client.graphql(revoke, variables: ["id": id], token: bobToken)
            #expect(Self.value(byBob, "revokeAccessToken") as? Bool == false)
            #expect(try await client.graphql("{ viewer { name } }", token: newToken).status == 200)
            // A token limited to a book cannot revoke a wider one of its principal's (an app given one book would
            // lock out every other client); it revokes itself and tokens no wider than it.
            // A token's id is its 12 characters after "carnet_" (the id may hold "_" itself).
            let wholeID = String(whole.token.dropFirst(7).prefix(12))
            let byLimited = try await client.graphql(revoke, variables: ["id": wholeID], token: limitedWriter)
            #expect(byLimited.errorCodes == ["FORBIDDEN"])
            #expect(try await client.graphql("{ viewer { name } }", token: whole.token).status == 200)
            let byAlice = try await client.graphql(revoke, variables: ["id": id], token: whole.token)
            #expect(Self.value(byAlice, "revokeAccessToken") as? Bool == true)
            #expect(try await client.graphql("{ viewer { name } }", token: newToken).status == 401)
            let limitedID = String(limitedWriter.dropFirst(7).prefix(12))
            let itself = try await client.graphql(revoke, variables: ["id": limitedID], token: limitedWriter)
            #expect(Self.value(itself, "revokeAccessToken") as? Bool == true)
        }
    }

    @Test("A token bound to authors makes only tokens bound to some of them; books are shared READ or READ_WRITE")
    func boundTokensAndShareAccess() async throws {
        try await withRouter { server, client in
            let bound = try await server.token(authors: ["app", "app-import"])
            let create = """
                mutation($a: [String!]) { createAccessToken(name: "m", scopes: [READ, WRITE], transactionAuthors: $a) { token } }
                """
            // No authors means any author: as wide as ["evil"], refused like it.
            for authors: [String]? in [nil, [], ["evil"], ["app", "evil"]] {
                let reply = try await client.graphql(
                    create, variables: authors.map { ["a": $0] } ?? [:], token: bound)
                #expect(reply.errorCodes == ["FORBIDDEN"], "\(String(describing: authors))")
            }
            let made = try await client.graphql(create, variables: ["a": ["app-import"]], token: bound)
            let minted = try #require(
                (Self.value(made, "createAccessToken") as? [String: Any])?["token"] as? String)
            let save = """
                mutation($a: String) { save(request: {transactionAuthor: $a, operations: [{addContact: {givenName: "M"}}]}) { revision } }
                """
            #expect(try await client.graphql(save, variables: ["a": "evil"], token: minted).errorCodes == ["FORBIDDEN"])
            #expect(try await client.graphql(save, variables: ["a": "app-import"], token: minted).errorCodes.isEmpty)

            let catalog = server.app.backend.catalog
            let bob = try await catalog.createPrincipal(name: "bob")
            let admin = try await server.token()
            let book = try #require(try await catalog.principal(named: "admin")?.defaultBookID)
            let share =
                "mutation($id: ID!, $p: ID!) { shareAddressBook(id: $id, principalId: $p, access: OWNER) { id } }"
            let owner = try await client.graphql(share, variables: ["id": book, "p": bob.id], token: admin)
            #expect(owner.errorCodes == ["BAD_USER_INPUT"])
            #expect(try await catalog.access(principalID: bob.id, bookID: book, tokenBooks: nil) == nil)
        }
    }

    @Test("Only an admin manages principals; a disabled principal's tokens stop; deleting one deletes its books")
    func principals() async throws {
        try await withRouter { server, client in
            let admin = try await server.token()
            let alice = try await server.app.backend.catalog.createPrincipal(name: "alice")
            let aliceToken = try await server.token(for: alice)
            let create = #"mutation { createPrincipal(name: "carol", kind: SERVICE) { id name kind isAdmin } }"#
            #expect(try await client.graphql(create, token: aliceToken).errorCodes == ["FORBIDDEN"])
            #expect(try await client.graphql("{ principals { name } }", token: aliceToken).errorCodes == ["FORBIDDEN"])
            let carol = try #require(
                Self.value(try await client.graphql(create, token: admin), "createPrincipal") as? [String: Any])
            #expect(carol["kind"] as? String == "SERVICE" && carol["isAdmin"] as? Bool == false)
            let names = Self.value(try await client.graphql("{ principals { name } }", token: admin), "principals")
            #expect((names as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["admin", "alice", "carol"])

            let disable = "mutation($id: ID!, $d: Boolean!) { setPrincipalDisabled(id: $id, disabled: $d) { name } }"
            _ = try await client.graphql(disable, variables: ["id": alice.id, "d": true], token: admin)
            #expect(try await client.graphql("{ viewer { name } }", token: aliceToken).status == 401)
            _ = try await client.graphql(disable, variables: ["id": alice.id, "d": false], token: admin)
            #expect(try await client.graphql("{ viewer { name } }", token: aliceToken).status == 200)

            let bookID = try #require(alice.defaultBookID)
            let book = try #require(try await server.app.backend.catalog.book(id: bookID))
            _ = try await client.graphql("{ contacts { totalCount } }", token: aliceToken)
            let path = try server.app.dataFolder.bookStores.path(of: book)
            #expect(FileManager.default.fileExists(atPath: path))
            let deleted = try await client.graphql(
                "mutation($id: ID!) { deletePrincipal(id: $id) }", variables: ["id": alice.id], token: admin)
            #expect(Self.value(deleted, "deletePrincipal") as? String == alice.id)
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(try await client.graphql("{ viewer { name } }", token: aliceToken).status == 401)
        }
    }
}
