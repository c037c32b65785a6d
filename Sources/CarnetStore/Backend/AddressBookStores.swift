/// Opens address books' stores: requests hold a book's store for their duration, subscriptions for their lifetime.
///
/// A backend may keep a bounded pool (SQLite's one file per book) or hand out cheap handles onto one database; either
/// way every ``acquire(_:)`` is paired with a ``release(_:)``.
public protocol AddressBookStores: Sendable {
    /// The book's store, opened (and created) if needed; pair with ``release(_:)``.
    func acquire(_ book: AddressBook) async throws -> any ContactStore
    /// Gives back a store from ``acquire(_:)``.
    func release(_ bookID: String) async
    /// Deletes the book's records and ends its subscriptions: for a book deleted from the catalog. A backend whose
    /// catalog shares the records' database deleted them with the catalog entry; it only ends the subscriptions.
    func delete(_ book: AddressBook) async throws
    /// Closes every open book.
    func closeAll() async
}

extension AddressBookStores {
    /// Runs `body` with the book's store held open.
    public func withStore<T: Sendable>(
        _ book: AddressBook, _ body: @Sendable (any ContactStore) async throws -> T
    ) async throws -> T {
        let store = try await acquire(book)
        do {
            let result = try await body(store)
            await release(book.id)
            return result
        } catch {
            await release(book.id)
            throw error
        }
    }
}
