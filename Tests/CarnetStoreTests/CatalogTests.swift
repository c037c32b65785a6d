import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// Principals, books, grants, quotas and tokens in the catalog, on each backend.
@Suite("Catalog")
struct CatalogTests {
    static func withCatalog(
        _ kind: CatalogKind, configure: (inout StoreConfiguration) -> Void = { _ in },
        _ body: (any CatalogStore) async throws -> Void
    ) async throws {
        try await CatalogFixture.with(kind, configure: configure, body)
    }

    static func code(_ body: () async throws -> some Any) async -> StoreError.Code? {
        do {
            _ = try await body()
            return nil
        } catch let error as StoreError {
            return error.code
        } catch {
            return nil
        }
    }

    @Test(
        "A new principal has a default book of its own; names are unique and checked", arguments: CatalogKind.available)
    func principals(kind: CatalogKind) async throws {
        try await Self.withCatalog(kind) { catalog in
            let alice = try await catalog.createPrincipal(name: "alice")
            let books = try await catalog.books(visibleTo: alice.id)
            #expect(books.map(\.book.id) == [alice.defaultBookID])
            #expect(books.first?.access == .owner && books.first?.sharedBy == nil)
            #expect(
                await Self.code { try await catalog.createPrincipal(name: "alice") } == .insertedRecordAlreadyExists)
            #expect(await Self.code { try await catalog.createPrincipal(name: " ") } == .validationFailed)
            #expect(await Self.code { try await catalog.createPrincipal(name: "a\u{7}b") } == .validationFailed)
            #expect(try await catalog.principal(named: "alice")?.id == alice.id)
            // Names that differ only in how an accent is encoded are one name, found by either spelling.
            let zoe = try await catalog.createPrincipal(name: "Zoe\u{308}")
            #expect(Array(zoe.name.utf8) == Array("Zo\u{EB}".utf8))
            #expect(
                await Self.code { try await catalog.createPrincipal(name: "Zo\u{EB}") } == .insertedRecordAlreadyExists)
            #expect(try await catalog.principal(named: "Zo\u{EB}")?.id == zoe.id)
            #expect(try await catalog.principal(named: "Zoe\u{308}")?.id == zoe.id)
        }
    }

    @Test(
        "A book is invisible to others until shared, then read or readWrite, until unshared",
        arguments: CatalogKind.available)
    func sharing(kind: CatalogKind) async throws {
        try await Self.withCatalog(kind) { catalog in
            let alice = try await catalog.createPrincipal(name: "alice")
            let bob = try await catalog.createPrincipal(name: "bob")
            let family = try await catalog.createBook(name: "Family", ownerID: alice.id)
            #expect(try await catalog.access(principalID: bob.id, bookID: family.id) == nil)
            #expect(try await catalog.books(visibleTo: bob.id).count == 1)
            // Bob cannot learn whether the book exists: the same answer as for an unknown id.
            #expect(
                await Self.code { try await catalog.renameBook(id: family.id, to: "x", by: bob.id) }
                    == .recordDoesNotExist)
            #expect(
                await Self.code { try await catalog.renameBook(id: "nope", to: "x", by: bob.id) } == .recordDoesNotExist
            )

            try await catalog.share(bookID: family.id, with: bob.id, access: .read, by: alice.id)
            #expect(try await catalog.access(principalID: bob.id, bookID: family.id)?.access == .read)
            let shared = try await catalog.books(visibleTo: bob.id).first { $0.book.id == family.id }
            #expect(shared?.access == .read && shared?.sharedBy?.id == alice.id)
            // A grantee may use the book but not manage it.
            #expect(await Self.code { try await catalog.renameBook(id: family.id, to: "x", by: bob.id) } == .forbidden)
            #expect(
                await Self.code {
                    try await catalog.share(bookID: family.id, with: bob.id, access: .readWrite, by: bob.id)
                } == .forbidden)

            try await catalog.share(bookID: family.id, with: bob.id, access: .readWrite, by: alice.id)
            #expect(try await catalog.access(principalID: bob.id, bookID: family.id)?.access == .readWrite)
            #expect(try await catalog.grants(bookID: family.id, by: alice.id).map(\.principal.id) == [bob.id])
            #expect(try await catalog.unshare(bookID: family.id, with: bob.id, by: alice.id))
            #expect(try await catalog.access(principalID: bob.id, bookID: family.id) == nil)
        }
    }

    @Test(
        "Books per principal are limited; a default book cannot be deleted; deleted ids never come back",
        arguments: CatalogKind.available)
    func quotasAndDeletion(kind: CatalogKind) async throws {
        try await Self.withCatalog(kind, configure: { $0.booksPerPrincipal = 2 }) { catalog in
            let alice = try await catalog.createPrincipal(name: "alice")
            let second = try await catalog.createBook(name: "Work", ownerID: alice.id)
            #expect(
                await Self.code { try await catalog.createBook(name: "Third", ownerID: alice.id) } == .quotaExceeded)
            let defaultBook = try #require(alice.defaultBookID)
            #expect(await Self.code { try await catalog.deleteBook(id: defaultBook, by: alice.id) } == .forbidden)
            let deleted = try await catalog.deleteBook(id: second.id, by: alice.id)
            #expect(deleted.id == second.id)
            #expect(try await catalog.book(id: second.id) == nil)
            _ = try await catalog.createBook(name: "Again", ownerID: alice.id)
        }
    }

    @Test("Deleting a principal takes its books, grants and tokens", arguments: CatalogKind.available)
    func deletePrincipal(kind: CatalogKind) async throws {
        try await Self.withCatalog(kind) { catalog in
            let alice = try await catalog.createPrincipal(name: "alice")
            let bob = try await catalog.createPrincipal(name: "bob")
            let book = try await catalog.createBook(name: "Shared", ownerID: alice.id)
            try await catalog.share(bookID: book.id, with: bob.id, access: .read, by: alice.id)
            try await catalog.insertAccessToken(
                AccessTokenRecord(
                    id: "tok", name: "t", secretHash: [1], scopes: ["read"], authors: [], principalID: alice.id))
            let gone = try await catalog.deletePrincipal(id: alice.id)
            #expect(Set(gone.map(\.id)) == [book.id, alice.defaultBookID])
            #expect(try await catalog.books(visibleTo: bob.id).count == 1)
            #expect(try await catalog.accessToken(id: "tok") == nil)
            #expect(await Self.code { try await catalog.deletePrincipal(id: alice.id) } == .recordDoesNotExist)
            // The service's admin (the first admin) stays: the service holds its default book open. Another admin
            // may go.
            let root = try await catalog.createPrincipal(name: "root", kind: .user, isAdmin: true)
            let second = try await catalog.createPrincipal(name: "second", kind: .user, isAdmin: true)
            #expect(await Self.code { try await catalog.deletePrincipal(id: root.id) } == .forbidden)
            #expect(try await catalog.principal(id: root.id) != nil)
            #expect(try await catalog.deletePrincipal(id: second.id).map(\.id) == [second.defaultBookID])
        }
    }

    @Test("Tokens belong to a principal and may be limited to books it can open", arguments: CatalogKind.available)
    func tokens(kind: CatalogKind) async throws {
        try await Self.withCatalog(kind) { catalog in
            let alice = try await catalog.createPrincipal(name: "alice")
            let bob = try await catalog.createPrincipal(name: "bob")
            let bobsBook = try #require(bob.defaultBookID)
            let scoped = AccessTokenRecord(
                id: "a1", name: "sync", secretHash: [9, 9], scopes: ["read", "write"], authors: ["app"],
                // A whole second: the catalog keeps dates as seconds in a double, which need not round-trip a Date.
                created: Date(timeIntervalSince1970: 1_790_000_000), principalID: alice.id,
                bookIDs: [try #require(alice.defaultBookID)])
            try await catalog.insertAccessToken(scoped)
            let (found, principal) = try #require(try await catalog.accessToken(id: "a1"))
            #expect(found == scoped && principal.id == alice.id)
            var foreign = scoped
            foreign.id = "a2"
            foreign.bookIDs = [bobsBook]
            #expect(await Self.code { try await catalog.insertAccessToken(foreign) } == .recordDoesNotExist)
            var powerless = scoped
            powerless.id = "a3"
            powerless.scopes = []
            #expect(await Self.code { try await catalog.insertAccessToken(powerless) } == .validationFailed)
            #expect(try await catalog.accessToken(id: "a3") == nil)
            var bookless = scoped
            bookless.id = "a4"
            bookless.bookIDs = []
            #expect(await Self.code { try await catalog.insertAccessToken(bookless) } == .validationFailed)
            #expect(try await catalog.accessToken(id: "a4") == nil)
            #expect(try await catalog.revokeAccessToken(id: "a1", principalID: bob.id) == false)
            #expect(try await catalog.revokeAccessToken(id: "a1", principalID: alice.id))
            #expect(try await catalog.accessTokens(principalID: alice.id).first?.revoked != nil)
        }
    }
}

/// The contacts-per-book quota.
@Suite("Contact quota")
struct ContactQuotaTests {
    @Test("A save past the book's contact quota writes nothing and says QUOTA_EXCEEDED; deletes make room")
    func quota() async throws {
        let fixture = try await StoreFixture(.onDiskWAL) { $0.contactsPerBook = 3 }
        let store = fixture.store
        var first = SaveRequest(transactionAuthor: "t")
        var kept: [Contact] = []
        for name in ["A", "B", "C"] {
            var contact = Contact()
            contact.givenName = name
            kept.append(contact)
            first.add(contact)
        }
        try await store.execute(first)
        var over = SaveRequest(transactionAuthor: "t")
        over.add(Contact())
        await #expect(throws: StoreError.self) { try await store.execute(over) }
        do {
            try await store.execute(over)
        } catch let error as StoreError {
            #expect(error.code == .quotaExceeded)
        }
        #expect(try await store.contactCount() == 3)
        // Replacing one contact by another in one save stays within the quota.
        var swap = SaveRequest(transactionAuthor: "t")
        swap.delete(contactWithIdentifier: kept[0].identifier)
        swap.add(Contact())
        try await store.execute(swap)
        #expect(try await store.contactCount() == 3)
        // Past the highest rowid the quota still counts contacts, not rowids: one more is refused, and after
        // deletes, adds fit again.
        await #expect(throws: StoreError.self) { try await store.execute(over) }
        var clear = SaveRequest(transactionAuthor: "t")
        clear.delete(contactWithIdentifier: kept[1].identifier)
        clear.delete(contactWithIdentifier: kept[2].identifier)
        try await store.execute(clear)
        var refill = SaveRequest(transactionAuthor: "t")
        refill.add(Contact())
        refill.add(Contact())
        try await store.execute(refill)
        let listed = try await store.contacts(ContactFetchRequest(keysToFetch: [], page: .first(100))).contacts.count
        #expect(try await store.statistics().contacts == listed)
        #expect(try await store.contactCount() == listed)
        #expect(listed == 3)
    }
}
