import CarnetServer
import CarnetStore
import Foundation
import HummingbirdWSClient
import Testing

/// Subscriptions on a shared book over a real wss connection: they see the book's commits, a book without a grant
/// is refused like an unknown one, and a withdrawn grant ends the subscription with FORBIDDEN.
@Suite("Subscriptions on address books")
struct BookSubscriptionTests {
    @Test("A grantee follows a shared book until the grant is withdrawn, then gets FORBIDDEN")
    func followUntilUnshared() async throws {
        try await withServer { server in
            let catalog = server.app.backend.catalog
            let alice = try await catalog.createPrincipal(name: "alice")
            let bob = try await catalog.createPrincipal(name: "bob")
            let family = try await catalog.createBook(name: "Family", ownerID: alice.id)
            let bobToken = try await server.token(for: bob, [.read])
            let (events, sink) = AsyncStream<String>.makeStream()
            let socket = Task {
                try await WebSocketTestClient.connect(server, token: bobToken) { messages, outbound in
                    // changeHistory answers at once (its catch-up page), so the subscription is live once that arrives.
                    let query = "subscription($b: ID) { changeHistory(addressBookId: $b) { events { __typename } } }"
                    // One at a time, so the answers come in order.
                    try await outbound.writeTextMessage(
                        #"{"type":"subscribe","id":"hidden","payload":{"query":"\#(query)","variables":{"b":"\#(family.id)"}}}"#
                    )
                    while let message = try await messages.next() {
                        guard case .text(let text) = message else { continue }
                        sink.yield(text)
                        if text.contains(#""id":"hidden""#) {
                            try await outbound.writeTextMessage(
                                #"{"type":"subscribe","id":"unknown","payload":{"query":"\#(query)","variables":{"b":"no-such-book"}}}"#
                            )
                        }
                        if text.contains(#""id":"unknown""#) {
                            // Now share the book and follow it.
                            try await catalog.share(bookID: family.id, with: bob.id, access: .read, by: alice.id)
                            try await outbound.writeTextMessage(
                                #"{"type":"subscribe","id":"shared","payload":{"query":"\#(query)","variables":{"b":"\#(family.id)"}}}"#
                            )
                        }
                    }
                }
            }
            var iterator = events.makeAsyncIterator()
            let hidden = await iterator.next() ?? ""
            let unknown = await iterator.next() ?? ""
            // No grant reads exactly as no book.
            #expect(hidden.contains(#""type":"error""#) && hidden.contains("RECORD_DOES_NOT_EXIST"))
            #expect(
                hidden.replacingOccurrences(of: "hidden", with: "X").replacingOccurrences(of: family.id, with: "B")
                    == unknown.replacingOccurrences(of: "unknown", with: "X").replacingOccurrences(
                        of: "no-such-book", with: "B"))
            #expect(
                await iterator.next()
                    == #"{"type":"next","id":"shared","payload":{"data":{"changeHistory":{"events":[{"__typename":"DropEverythingEvent"}]}}}}"#
            )
            try await server.app.backend.books.withStore(family) { store in
                var request = SaveRequest(transactionAuthor: "alice-app")
                request.add(contact("Fam"))
                try await store.execute(request)
            }
            #expect(
                await iterator.next()
                    == #"{"type":"next","id":"shared","payload":{"data":{"changeHistory":{"events":[{"__typename":"AddContactEvent"}]}}}}"#
            )
            try await catalog.unshare(bookID: family.id, with: bob.id, by: alice.id)
            let ended = await iterator.next() ?? ""
            #expect(ended.contains(#""type":"error","id":"shared""#) && ended.contains("FORBIDDEN"))
            socket.cancel()
        }
    }

    @Test("Deleting a book ends its subscriptions with FORBIDDEN, not complete")
    func deletedBook() async throws {
        try await withServer { server in
            let catalog = server.app.backend.catalog
            let alice = try await catalog.createPrincipal(name: "alice")
            let work = try await catalog.createBook(name: "Work", ownerID: alice.id)
            let token = try await server.token(for: alice, [.read])
            let (events, sink) = AsyncStream<String>.makeStream()
            let socket = Task {
                try await WebSocketTestClient.connect(server, token: token) { messages, outbound in
                    let query = "subscription($b: ID) { changeHistory(addressBookId: $b) { events { __typename } } }"
                    try await outbound.writeTextMessage(
                        #"{"type":"subscribe","id":"work","payload":{"query":"\#(query)","variables":{"b":"\#(work.id)"}}}"#
                    )
                    while let message = try await messages.next() {
                        guard case .text(let text) = message else { continue }
                        sink.yield(text)
                    }
                }
            }
            var iterator = events.makeAsyncIterator()
            #expect((await iterator.next() ?? "").contains(#""type":"next","id":"work""#))
            try await server.app.backend.books.delete(try await catalog.deleteBook(id: work.id, by: alice.id))
            let ended = await iterator.next() ?? ""
            #expect(ended.contains(#""type":"error","id":"work""#) && ended.contains("FORBIDDEN"), "\(ended)")
            socket.cancel()
        }
    }

    @Test("Revoking a token ends its open subscriptions with FORBIDDEN, and its socket runs nothing more (4403)")
    func revokedToken() async throws {
        try await withServer { server in
            let (token, record) = try await server.app.tokens.create(name: "r", scopes: [.read, .write])
            let (events, sink) = AsyncStream<String>.makeStream()
            let (commands, command) = AsyncStream<String>.makeStream()
            let socket = Task {
                try await WebSocketTestClient.connect(server, token: token) { messages, outbound in
                    try await outbound.writeTextMessage(
                        #"{"type":"subscribe","id":"feed","payload":{"query":"subscription { changeHistory { token } }"}}"#
                    )
                    let sender = Task { for await text in commands { try await outbound.writeTextMessage(text) } }
                    defer { sender.cancel() }
                    while let message = try await messages.next() {
                        guard case .text(let text) = message else { continue }
                        sink.yield(text)
                    }
                    sink.finish()
                }
            }
            var iterator = events.makeAsyncIterator()
            #expect((await iterator.next() ?? "").contains(#""type":"next","id":"feed""#))
            try await server.app.backend.catalog.revokeAccessToken(id: record.id)
            let ended = await iterator.next() ?? ""
            #expect(ended.contains(#""type":"error","id":"feed""#) && ended.contains("FORBIDDEN"))
            // A save on the same socket after the revocation: refused, the socket closed, nothing written.
            command.yield(
                #"{"type":"subscribe","id":"save","payload":{"query":"mutation { save(request: {operations: [{addContact: {givenName: \"Late\"}}]}) { revision } }"}}"#
            )
            let after = await iterator.next()
            #expect(after == nil, "no answer to an operation after the revocation: \(after ?? "")")
            let close = try await socket.value
            #expect(close?.closeCode == .unknown(4403), "\(String(describing: close))")
            #expect(try await server.store.contactCount() == 0)
            command.finish()
        }
    }
}
