import CarnetGraphQL
import CarnetStore
import CarnetStorePostgres
import CarnetStoreSQLite
import CarnetStoreTestSupport
import Foundation

/// The server side of a schedule: a store (on disk when the schedule restarts it) and the GraphQL service; or, for
/// schedules over several books, a backend whose principal `owner` reaches three books (its default, a second of
/// its own, and one `other` shares with it), each client following one of them. On PostgreSQL every world is a
/// backend on the shared test database (its principals named uniquely), restarted by opening it again.
final class SyncWorld {
    let directory: URL?
    let booksCount: Int
    var store: any ContactStore
    var service: GraphQLService
    private var folder: (any StoreBackend)?
    private let openBackend: () async throws -> any StoreBackend
    /// In a data folder: the books clients reach (the first is the owner's default) and their open stores.
    private(set) var books: [AddressBook] = []
    private(set) var stores: [any ContactStore] = []
    private var ownerID = ""
    private var otherID = ""

    init(onDisk: Bool, books: Bool = false, postgres: Bool = false) async throws {
        if postgres {
            directory = nil
            let location = try await PostgresTestDatabase.sharedLocation()
            openBackend = { try await PostgresBackend.open(location) }
            booksCount = books ? 3 : 1
            let backend = try await openBackend()
            // A world of one book is a principal with its default book; names are unique in the shared database.
            let owner = try await backend.catalog.createPrincipal(name: "owner-\(UUID().uuidString)")
            guard let ownerBook = owner.defaultBookID, let first = try await backend.catalog.book(id: ownerBook) else {
                throw ModelFailure("the book was not made")
            }
            store = try await backend.books.acquire(first)
            service = GraphQLService(store: store, limits: .unhurried)
            self.books = [first]
            ownerID = owner.id
            folder = backend
            if books { try await makeBooks(backend, owner: owner, first: first) }
            try await openBooks()
            return
        }
        let directory: URL?
        if onDisk || books {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "carnet-sync-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            directory = folder
            store = try SQLiteStore.open(path: folder.appendingPathComponent("carnet.sqlite").path)
        } else {
            directory = nil
            store = try SQLiteStore.inMemory()
        }
        self.directory = directory
        let path = directory?.path ?? ""
        openBackend = { try await DataFolder.open(directory: path) }
        booksCount = books ? 3 : 1
        service = GraphQLService(store: store, limits: .unhurried)
        if books {
            try await store.close()
            let folder = try await openBackend()
            let owner = try await folder.catalog.createPrincipal(name: "owner")
            guard let ownerBook = owner.defaultBookID, let first = try await folder.catalog.book(id: ownerBook) else {
                throw ModelFailure("the books were not made")
            }
            self.folder = folder
            try await makeBooks(folder, owner: owner, first: first)
            try await openBooks()
        }
    }

    /// The owner's second book and `other`'s default, which it shares with the owner.
    private func makeBooks(_ backend: any StoreBackend, owner: Principal, first: AddressBook) async throws {
        let other = try await backend.catalog.createPrincipal(name: "other-\(UUID().uuidString)")
        let second = try await backend.catalog.createBook(name: "Second", ownerID: owner.id)
        guard let otherBook = other.defaultBookID, let shared = try await backend.catalog.book(id: otherBook) else {
            throw ModelFailure("the books were not made")
        }
        try await backend.catalog.share(bookID: otherBook, with: owner.id, access: .readWrite, by: other.id)
        books = [first, second, shared]
        ownerID = owner.id
        otherID = other.id
    }

    private func openBooks() async throws {
        guard let folder else { return }
        stores = []
        for book in books { stores.append(try await folder.books.acquire(book)) }
        store = stores[0]
        service = GraphQLService(store: store, limits: .unhurried)
    }

    /// The request context of the owner's requests (on its default book, the first), or of `other`'s (on its
    /// own default book, the third, which it shares with the owner).
    func context(asOther: Bool = false) -> GraphQLRequestContext {
        var context = GraphQLRequestContext()
        guard let folder else { return context }
        let home = asOther ? 2 : 0
        context.store = stores[home]
        context.viewer = GraphQLViewer(
            principalID: asOther ? otherID : ownerID, tokenID: "model", catalog: folder.catalog, books: folder.books,
            bookIDs: nil,
            defaultBookID: books[home].id, scopes: ["read", "write"]
        ) { _, _, _, _ in throw ModelFailure("no tokens in the model") }
        return context
    }

    var context: GraphQLRequestContext { context() }

    /// The `addressBookId` of book `index` for the owner: `null` for its default one.
    func bookVariable(_ index: Int) -> JSONValue { index == 0 ? .null : .string(books[index].id) }

    /// The store of book `index`.
    func store(of index: Int) -> any ContactStore { stores.isEmpty ? store : stores[index] }

    /// Closes the store (ending every subscription) and opens it again, as a server restart does.
    func restart() async throws {
        if let folder {
            try await folder.close()
            self.folder = try await openBackend()
            try await openBooks()
            return
        }
        guard let directory else { return }
        try await store.close()
        store = try SQLiteStore.open(path: directory.appendingPathComponent("carnet.sqlite").path)
        service = GraphQLService(store: store, limits: .unhurried)
    }

    func close() async {
        if let folder { try? await folder.close() } else { try? await store.close() }
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// Runs a document; `errors` come back in the result.
    func run(_ query: String, _ variables: [String: JSONValue] = [:], asOther: Bool = false) async throws
        -> JSONValue
    {
        let response = await service.execute(
            GraphQLRequestBody(query: query, variables: variables), context: context(asOther: asOther))
        return try JSONParser.parse(response.body)
    }

    /// What the server holds in book `index`, as unified or individual contacts. With unification, a membership
    /// is its unified contact's: in the group when any member is (`Group.members` lists individual contacts).
    func state(book index: Int = 0, unify: Bool) async throws -> ReplicaState {
        var state = ReplicaState()
        var after: JSONValue = .null
        var unifiedOf: [String: String] = [:]
        var pairs: [[String]] = []
        while true {
            var variables: [String: JSONValue] = ["after": after, "unify": .bool(unify)]
            if index != 0 { variables["book"] = bookVariable(index) }
            let result = try await run(index == 0 ? SyncDocuments.state : SyncDocuments.bookState, variables)
            guard var data = result["data"], result["errors"] == nil else {
                throw ModelFailure("state: \(result.json)")
            }
            if index != 0, let book = data["addressBook"] { data = book }
            for node in data["contacts"]?["nodes"]?.arrayValue ?? [] {
                guard let id = node["id"]?.stringValue else { continue }
                state.contacts[id] = node
                // An individual contact lists its unified contact's members too: only unified ones stand for them.
                for member in node["linkedContacts"]?.arrayValue ?? [] where unify {
                    if let member = member["id"]?.stringValue, member != id { unifiedOf[member] = id }
                }
            }
            for group in data["groups"]?.arrayValue ?? [] {
                guard let id = group["id"]?.stringValue else { continue }
                state.groups[id] = group["name"]?.stringValue
                for member in group["members"]?.arrayValue ?? [] {
                    if let contact = member["id"]?.stringValue { pairs.append([id, contact]) }
                }
            }
            guard data["contacts"]?["pageInfo"]?["hasNextPage"] == .bool(true),
                let cursor = data["contacts"]?["pageInfo"]?["endCursor"]
            else { break }
            after = cursor
        }
        for pair in pairs { state.members.insert([pair[0], unifiedOf[pair[1]] ?? pair[1]]) }
        return state
    }
}
