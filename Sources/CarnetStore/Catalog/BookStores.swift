import Foundation

/// The open stores of address books: each book's database is opened when first used and kept in a bounded pool,
/// least recently used idle books closed first, so thousands of books stay within the process's file
/// descriptors and memory.
///
/// A store handed out by ``acquire(_:)`` stays open until ``release(_:)``: requests hold one for their duration,
/// subscriptions for their lifetime. The pool may exceed its capacity while every open book is in use.
public actor BookStores {
    /// The data folder that books' file names are relative to.
    public nonisolated let directory: String
    public nonisolated let configuration: StoreConfiguration
    /// How many books stay open when idle.
    public nonisolated let capacity: Int

    private struct Entry {
        var store: CarnetStore
        var leases: Int
        var lastUsed: UInt64
    }

    private var open: [String: Entry] = [:]
    private var clock: UInt64 = 0

    public init(directory: String, configuration: StoreConfiguration = StoreConfiguration(), capacity: Int = 64) {
        self.directory = directory
        self.configuration = configuration
        self.capacity = max(1, capacity)
    }

    /// The book's database path.
    public nonisolated func path(of book: AddressBook) -> String {
        (directory as NSString).appendingPathComponent(book.fileName)
    }

    /// How many books are open now.
    public var openCount: Int { open.count }

    /// The book's store, opened (and created) if needed; pair with ``release(_:)``.
    public func acquire(_ book: AddressBook) throws -> CarnetStore {
        clock += 1
        if var entry = open[book.id] {
            entry.leases += 1
            entry.lastUsed = clock
            open[book.id] = entry
            return entry.store
        }
        let path = path(of: book)
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let store = try CarnetStore.open(path: path, configuration: configuration)
        open[book.id] = Entry(store: store, leases: 1, lastUsed: clock)
        evictIdle()
        return store
    }

    /// Gives back a store from ``acquire(_:)``.
    public func release(_ bookID: String) {
        guard var entry = open[bookID] else { return }
        entry.leases = max(0, entry.leases - 1)
        clock += 1
        entry.lastUsed = clock
        open[bookID] = entry
        evictIdle()
    }

    /// Runs `body` with the book's store held open.
    public func withStore<T: Sendable>(
        _ book: AddressBook, _ body: @Sendable (CarnetStore) async throws -> T
    ) async throws -> T {
        let store = try acquire(book)
        defer { release(book.id) }
        return try await body(store)
    }

    /// Closes the book if open and deletes its database files: for a book deleted from the catalog.
    public func delete(_ book: AddressBook) async throws {
        if let entry = open.removeValue(forKey: book.id) { try await entry.store.close() }
        let path = path(of: book)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    /// Closes every open book.
    public func closeAll() async {
        let stores = open.values.map(\.store)
        open.removeAll()
        for store in stores { try? await store.close() }
    }

    /// Closes the least recently used idle books past the capacity, off the actor: a close waits for reads.
    private func evictIdle() {
        guard open.count > capacity else { return }
        let idle = open.filter { $0.value.leases == 0 }.sorted { $0.value.lastUsed < $1.value.lastUsed }
        for (id, entry) in idle.prefix(open.count - capacity) {
            open.removeValue(forKey: id)
            let store = entry.store
            Task.detached { try? await store.close() }
        }
    }
}
