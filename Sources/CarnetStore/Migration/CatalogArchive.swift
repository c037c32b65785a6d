import Foundation

/// The whole catalog: principals, books, grants, access tokens (their secrets' hashes, so every token keeps
/// working) and the identifiers retired, which stay retired on the receiving backend.
public struct CatalogArchive: Sendable, Hashable {
    public struct Grant: Sendable, Hashable {
        public var bookID: String
        public var principalID: String
        public var access: BookAccess
        public var granted: Date

        public init(bookID: String, principalID: String, access: BookAccess, granted: Date) {
            self.bookID = bookID
            self.principalID = principalID
            self.access = access
            self.granted = granted
        }
    }

    public var principals: [Principal]
    public var books: [AddressBook]
    public var grants: [Grant]
    public var tokens: [AccessTokenRecord]
    public var retiredIdentifiers: [String]

    public init(
        principals: [Principal], books: [AddressBook], grants: [Grant], tokens: [AccessTokenRecord],
        retiredIdentifiers: [String]
    ) {
        self.principals = principals
        self.books = books
        self.grants = grants
        self.tokens = tokens
        self.retiredIdentifiers = retiredIdentifiers
    }
}
