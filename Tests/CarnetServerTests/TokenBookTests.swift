import CarnetServer
import CarnetStore
import Foundation
import HummingbirdWSClient
import Testing

/// Tokens limited to books, when those books are deleted or their grants withdrawn. An outside client found that
/// a token whose book was deleted got 503 STORAGE_FAILURE (and an error log line) for as long as its identity
/// stayed cached, that root-field subscriptions on it ended with `complete`, and that a token limited to several
/// books could write to none of them when its first was read-only, and died with its first book's grant.
@Suite("Tokens and the books they are limited to")
struct TokenBookTests {
    @Test("A token whose only book is deleted: 401 at once over HTTP, FORBIDDEN on its root-field subscription")
    func deletedBook() async throws {
        // Identities cached for an hour: the deletion happens inside the cache's life, every time.
        try await withServer({ $0.tokenCacheLifetime = .seconds(3_600) }) { server in
            let catalog = server.app.backend.catalog
            let alice = try await catalog.createPrincipal(name: "alice")
            let bob = try await catalog.createPrincipal(name: "bob")
            let family = try await catalog.createBook(name: "Family", ownerID: alice.id)
            try await catalog.share(bookID: family.id, with: bob.id, access: .readWrite, by: alice.id)
            let token = try await server.token(for: bob, books: [family.id])
            let query = "{ contacts(first: 1) { totalCount } }"
            let before = try await TestClient.with(server) { try await $0.graphql(query, token: token) }
            #expect(before.status == 200 && before.errorCodes.isEmpty, "\(before.body)")
            let (events, sink) = AsyncStream<String>.makeStream()
            let socket = Task {
                try await WebSocketTestClient.connect(server, token: token) { messages, outbound in
                    try await outbound.writeTextMessage(
                        #"{"type":"subscribe","id":"root","payload":{"query":"subscription { changeHistory { events { __typename } } }"}}"#
                    )
                    while let message = try await messages.next() {
                        guard case .text(let text) = message else { continue }
                        sink.yield(text)
                    }
                    sink.finish()
                }
            }
            var iterator = events.makeAsyncIterator()
            #expect((await iterator.next() ?? "").contains(#""type":"next","id":"root""#))
            try await server.app.backend.books.delete(try await catalog.deleteBook(id: family.id, by: alice.id))
            let ended = await iterator.next() ?? ""
            #expect(ended.contains(#""type":"error","id":"root""#) && ended.contains("FORBIDDEN"), "\(ended)")
            for http2 in [false, true] {
                let after = try await TestClient.with(server, http2: http2) {
                    try await $0.graphql(query, token: token)
                }
                #expect(after.status == 401, "\(after.status) \(after.body)")
                #expect(after.errorCodes == ["UNAUTHENTICATED"], "\(after.body)")
            }
            socket.cancel()
        }
    }

    @Test("A token limited to a read-only book and a writable one writes to the writable one only")
    func readOnlyFirstBook() async throws {
        try await withRouter { server, client in
            let catalog = server.app.backend.catalog
            let alice = try await catalog.createPrincipal(name: "alice")
            let bob = try await catalog.createPrincipal(name: "bob")
            let shared = try await catalog.createBook(name: "Alice's", ownerID: alice.id)
            try await catalog.share(bookID: shared.id, with: bob.id, access: .read, by: alice.id)
            let own = try await catalog.createBook(name: "Bob's", ownerID: bob.id)
            let token = try await server.token(for: bob, books: [shared.id, own.id])
            let save = """
                mutation($b: ID) { save(addressBookId: $b, request: {operations: [{addContact: {givenName: "Bo"}}]}) \
                { revision } }
                """
            let intoOwn = try await client.graphql(save, variables: ["b": own.id], token: token)
            #expect(intoOwn.errorCodes.isEmpty, "\(intoOwn.body)")
            // The root fields mean the first of its books, shared read-only: refused, nothing written.
            let atRoot = try await client.graphql(save, token: token)
            #expect(atRoot.errorCodes == ["FORBIDDEN"], "\(atRoot.body)")
            let intoShared = try await client.graphql(save, variables: ["b": shared.id], token: token)
            #expect(intoShared.errorCodes == ["FORBIDDEN"], "\(intoShared.body)")
            let counts = try await [shared, own].asyncMap { book in
                try await server.app.backend.books.withStore(book) { try await $0.contactCount() }
            }
            #expect(counts == [0, 1])
        }
    }

    @Test("A token limited to two books outlives the grant on the first: its root fields mean the second")
    func firstGrantWithdrawn() async throws {
        try await withRouter { server, client in
            let catalog = server.app.backend.catalog
            let alice = try await catalog.createPrincipal(name: "alice")
            let bob = try await catalog.createPrincipal(name: "bob")
            let first = try await catalog.createBook(name: "First", ownerID: alice.id)
            let second = try await catalog.createBook(name: "Second", ownerID: alice.id)
            for book in [first, second] {
                try await catalog.share(bookID: book.id, with: bob.id, access: .readWrite, by: alice.id)
                try await server.app.backend.books.withStore(book) { store in
                    var request = SaveRequest(transactionAuthor: "alice")
                    request.add(contact(book.name))
                    try await store.execute(request)
                }
            }
            let token = try await server.token(for: bob, books: [first.id, second.id])
            let query = "{ contacts(first: 5) { nodes { givenName } } }"
            let before = try await client.graphql(query, token: token)
            #expect(before.body.contains("First") && !before.body.contains("Second"), "\(before.body)")
            try await catalog.unshare(bookID: first.id, with: bob.id, by: alice.id)
            let after = try await client.graphql(query, token: token)
            #expect(
                after.status == 200 && after.body.contains("Second") && !after.body.contains("First"), "\(after.body)")
            // With neither grant, the token opens nothing.
            try await catalog.unshare(bookID: second.id, with: bob.id, by: alice.id)
            #expect(try await client.graphql(query, token: token).status == 401)
        }
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
