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
    }

    private var open: [String: Entry] = [:]
    /// The open books nobody holds, with when each was last given back: the eviction candidates. Eviction keeps
    /// it within the capacity, so finding the oldest is a bounded scan however many books are held.
    private var idle: [String: UInt64] = [:]
    /// Books being opened, off the actor: opening takes milliseconds, and one book's open must not hold up
    /// requests to other books. Everyone asking for the book meanwhile waits for the same task.
    private var opening: [String: Task<CarnetStore, any Error>] = [:]
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
    public func acquire(_ book: AddressBook) async throws -> CarnetStore {
        if let store = lease(book.id) { return store }
        let task: Task<CarnetStore, any Error>
        if let pending = opening[book.id] {
            task = pending
        } else {
            let (path, configuration) = (path(of: book), configuration)
            task = Task.detached {
                try FileManager.default.createDirectory(
                    atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                return try CarnetStore.open(path: path, configuration: configuration)
            }
            opening[book.id] = task
        }
        let store: CarnetStore
        do {
            store = try await task.value
        } catch {
            opening[book.id] = nil
            throw error
        }
        // The first waiter back files the store; the others find it open.
        if opening[book.id] != nil, open[book.id] == nil {
            opening[book.id] = nil
            open[book.id] = Entry(store: store, leases: 0)
        }
        guard let leased = lease(book.id) else {
            // Deleted or closed while it opened: this caller's open is its own, closed when it is done with it.
            throw StoreError(.storageFailure, "The address book closed while it was being opened.")
        }
        evictIdle()
        return leased
    }

    /// Takes a lease on an open book.
    private func lease(_ bookID: String) -> CarnetStore? {
        guard var entry = open[bookID] else { return nil }
        entry.leases += 1
        open[bookID] = entry
        idle[bookID] = nil
        return entry.store
    }

    /// Gives back a store from ``acquire(_:)``.
    public func release(_ bookID: String) {
        guard var entry = open[bookID] else { return }
        entry.leases = max(0, entry.leases - 1)
        open[bookID] = entry
        if entry.leases == 0 {
            clock += 1
            idle[bookID] = clock
        }
        evictIdle()
    }

    /// Runs `body` with the book's store held open.
    public func withStore<T: Sendable>(
        _ book: AddressBook, _ body: @Sendable (CarnetStore) async throws -> T
    ) async throws -> T {
        let store = try await acquire(book)
        do {
            let result = try await body(store)
            release(book.id)
            return result
        } catch {
            release(book.id)
            throw error
        }
    }

    /// Closes the book if open and deletes its database files: for a book deleted from the catalog.
    public func delete(_ book: AddressBook) async throws {
        if let pending = opening.removeValue(forKey: book.id), let store = try? await pending.value {
            try await store.close()
        }
        idle[book.id] = nil
        if let entry = open.removeValue(forKey: book.id) { try await entry.store.close() }
        let path = path(of: book)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    /// Closes every open book.
    public func closeAll() async {
        let pending = Array(opening.values)
        opening.removeAll()
        let stores = open.values.map(\.store)
        open.removeAll()
        idle.removeAll()
        for store in stores { try? await store.close() }
        for task in pending { try? await task.value.close() }
    }

    /// Closes the least recently used idle books past the capacity, off the actor: a close waits for reads.
    private func evictIdle() {
        while open.count > capacity, let oldest = idle.min(by: { $0.value < $1.value })?.key {
            idle[oldest] = nil
            guard let entry = open.removeValue(forKey: oldest) else { continue }
            let store = entry.store
            Task.detached { try? await store.close() }
        }
    }
}
