import CarnetStore
import Foundation
import Synchronization

/// The books' stores on PostgreSQL: handles onto the shared tables, with each book's store identifier and this
/// instance's notifier for it kept after the first use. Nothing is held open per book, so there is no pool to bound.
public final class PostgresBooks: AddressBookStores {
    let database: PostgresDatabase
    let configuration: StoreConfiguration
    private let known = Mutex<[String: PostgresStore]>([:])
    private let namePrefixCounts = NamePrefixCounts()

    private let listener = Mutex<Task<Void, Never>?>(nil)

    /// The channel saves notify on: the payload is the book's id and its newest log position.
    static let channel = "carnet_book"

    init(database: PostgresDatabase, configuration: StoreConfiguration) {
        self.database = database
        self.configuration = configuration
    }

    /// Starts this instance's one listening connection: each wake-up makes the book's notifier here look for new
    /// commits. After a dropped connection or a database restart it listens again and has every notifier look, so
    /// subscribers catch up; meanwhile the notifiers' own polling covers the gap.
    func listen() {
        let task = Task { [weak self] in
            while !Task.isCancelled {
                guard let self else { return }
                do {
                    try await self.database.read { connection in
                        try await connection.listen(on: Self.channel) { notifications in
                            await self.wakeAll()
                            for try await notification in notifications {
                                let book = notification.payload.split(separator: " ").first.map(String.init) ?? ""
                                if let store = self.known.withLock({ $0[book] }) { await store.notifier.check() }
                            }
                        }
                    }
                } catch {
                    if Task.isCancelled { return }
                }
                try? await Task.sleep(for: .seconds(1))
            }
        }
        listener.withLock { $0 = task }
    }

    /// Every known book's notifier looks for commits it may have missed.
    private func wakeAll() async {
        for store in known.withLock({ Array($0.values) }) { await store.notifier.check() }
    }

    public func acquire(_ book: AddressBook) async throws -> any ContactStore { try await store(book) }

    /// ``acquire(_:)`` with the store's own type, for this backend's tools and tests.
    public func store(_ book: AddressBook) async throws -> PostgresStore {
        if let store = known.withLock({ $0[book.id] }) { return store }
        let opened = try await PostgresStore.open(
            database: database, bookID: book.id, configuration: configuration, namePrefixCounts: namePrefixCounts)
        // Two requests opening the book at once: the first one filed keeps its notifier.
        return known.withLock { stores in
            if let filed = stores[book.id] { return filed }
            stores[book.id] = opened
            return opened
        }
    }

    /// Stores are handles; nothing to give back.
    public func release(_ bookID: String) async {}

    /// Ends the book's subscriptions here. Its records went with its catalog entry, in that transaction
    /// (``BookRecords``).
    public func delete(_ book: AddressBook) async throws {
        if let store = known.withLock({ $0.removeValue(forKey: book.id) }) { await store.notifier.finishAll() }
    }

    public func closeAll() async {
        listener.withLock { $0?.cancel() }
        let stores = known.withLock { stores in
            defer { stores.removeAll() }
            return Array(stores.values)
        }
        for store in stores { await store.notifier.finishAll() }
    }
}

extension PostgresBooks {
    /// Another set of handles on the backend's database, with their own settings: what another instance sees.
    package static func open(_ backend: PostgresBackend, configuration: StoreConfiguration) -> PostgresBooks {
        PostgresBooks(database: backend.database, configuration: configuration)
    }
}
