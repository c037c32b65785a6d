import CarnetStore

/// Who asks, on a service of many principals and address books: what `viewer` and `addressBooks` read.
public struct GraphQLViewer: Sendable {
    public var principalID: String
    /// The token's identifier (its record's, in ``catalog``).
    public var tokenID: String
    public var catalog: any CatalogStore
    /// Where books' stores are opened.
    public var books: any AddressBookStores
    /// The books the token may open, among its principal's; `nil` for all of them.
    public var bookIDs: [String]?
    /// The book the root fields mean.
    public var defaultBookID: String
    /// Whether the viewer may write to ``defaultBookID`` (not when it is shared read-only).
    public var defaultBookWritable: Bool
    /// The token's scope names (`read`, `write`): a token it creates gets no more.
    public var scopes: Set<String>
    /// The transaction authors the token may save as; empty for any. A token it creates may save as no other.
    public var transactionAuthors: [String]
    /// Makes a token for this principal (the transport owns the secrets): name, scopes, authors, books.
    public var createToken:
        @Sendable (String, Set<String>, [String], [String]?) async throws -> (String, AccessTokenRecord)

    public init(
        principalID: String, tokenID: String, catalog: any CatalogStore, books: any AddressBookStores,
        bookIDs: [String]?,
        defaultBookID: String, defaultBookWritable: Bool = true,
        scopes: Set<String>, transactionAuthors: [String] = [],
        createToken:
            @escaping @Sendable (String, Set<String>, [String], [String]?) async throws -> (
                String, AccessTokenRecord
            )
    ) {
        self.scopes = scopes
        self.transactionAuthors = transactionAuthors
        self.createToken = createToken
        self.principalID = principalID
        self.tokenID = tokenID
        self.catalog = catalog
        self.books = books
        self.bookIDs = bookIDs
        self.defaultBookID = defaultBookID
        self.defaultBookWritable = defaultBookWritable
    }

    /// The books this token may open now, as its principal sees them.
    func visibleBooks() async throws -> [VisibleBook] {
        let visible = try await catalog.books(visibleTo: principalID)
        guard let bookIDs else { return visible }
        return visible.filter { bookIDs.contains($0.book.id) }
    }

    /// Throws FORBIDDEN unless this token may still write to the book: not revoked, its principal enabled, its
    /// access to the book still READ_WRITE or OWNER; RECORD_DOES_NOT_EXIST once the book is deleted (the caller
    /// could write to it: that it is gone tells nothing new). Asked again during a long write (an import's
    /// batches), which stops once access ends.
    func checkStillWritable(_ bookID: String) async throws {
        let ended = FieldError(message: "Access to this address book has ended.", code: .forbidden)
        guard let (token, principal) = try await catalog.accessToken(id: tokenID), token.revoked == nil,
            principal.disabled == nil, principal.id == principalID
        else { throw ended }
        guard let (_, access) = try await catalog.access(principalID: principalID, bookID: bookID, tokenBooks: bookIDs)
        else {
            if try await catalog.book(id: bookID) == nil { throw StoreError.noSuchBook(bookID) }
            throw ended
        }
        guard access.canWrite else { throw ended }
    }

    /// A book this token may open, as its principal sees it; `nil` when there is none or the principal may not
    /// know of it.
    func book(id: String) async throws -> VisibleBook? {
        guard let (book, access) = try await catalog.access(principalID: principalID, bookID: id, tokenBooks: bookIDs)
        else { return nil }
        let sharer = access == .owner ? nil : try await catalog.principal(id: book.ownerID)
        return VisibleBook(book: book, access: access, sharedBy: sharer)
    }
}
