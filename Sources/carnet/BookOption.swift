import ArgumentParser
import CarnetStore
import Foundation

/// `--book`: which address book a local command works on.
struct BookOption: ParsableArguments {
    @Option(help: "The address book's id (`carnet book list`). Default: the admin's default book, carnet.sqlite.")
    var book: String?

    /// Runs `body` with the chosen book's store, the data folder open (its catalog created if needed) and closed
    /// afterwards, also when `body` throws.
    func withStore<T>(
        _ data: DataOptions, creating: Bool = false, _ body: (any ContactStore, AddressBook) async throws -> T
    ) async throws -> T {
        try await data.withFolder(creating: creating) { backend in
            let found: AddressBook?
            if let book {
                found = try await backend.catalog.book(id: book)
            } else {
                found = try await backend.admin().defaultBookID.asyncFlatMap { try await backend.catalog.book(id: $0) }
            }
            guard let found else { throw ValidationError("No address book has id \(book ?? "(the admin's default)").") }
            let store = try await backend.books.acquire(found)
            do {
                let result = try await body(store, found)
                await backend.books.release(found.id)
                return result
            } catch {
                await backend.books.release(found.id)
                throw error
            }
        }
    }
}

extension Optional {
    fileprivate func asyncFlatMap<U>(_ transform: (Wrapped) async throws -> U?) async rethrows -> U? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
