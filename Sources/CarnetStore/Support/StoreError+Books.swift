extension StoreError {
    /// A book that does not exist, or that the caller may not know of: the same answer for both.
    package static func noSuchBook(_ id: String) -> StoreError {
        StoreError(.recordDoesNotExist, "No address book has this id.", affected: [id])
    }

    /// A book's store used after it closed (the book deleted, the service stopping): nothing happened; retry.
    package static let storeClosed = StoreError(.unavailable, "The store is closed; nothing was read or written.")
}
