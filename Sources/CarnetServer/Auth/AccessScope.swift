import CarnetGraphQL
import CarnetStore

/// What a token may do: `read` runs queries and subscriptions, `write` runs mutations.
public enum AccessScope: String, Sendable, Hashable, CaseIterable, Codable {
    case read, write

    /// The operation kinds a set of scopes allows.
    static func operations(_ scopes: Set<AccessScope>) -> Set<OperationKind> {
        switch (scopes.contains(.read), scopes.contains(.write)) {
        case (true, true): readWrite
        case (true, false): readOnly
        case (false, true): writeOnly
        case (false, false): []
        }
    }

    // Built once: every request asks.
    private static let readWrite: Set<OperationKind> = [.query, .subscription, .mutation]
    private static let readOnly: Set<OperationKind> = [.query, .subscription]
    private static let writeOnly: Set<OperationKind> = [.mutation]
}

/// The authenticated caller of one request or socket.
public struct AccessIdentity: Sendable, Hashable {
    public var tokenID: String
    public var name: String
    public var scopes: Set<AccessScope>
    /// The transaction authors this caller may save as; empty means any. The first is the default.
    public var authors: [String]
    /// The principal the token belongs to.
    public var principalID: String
    /// The book the root GraphQL fields mean: the principal's default book, or the token's first book when the
    /// token is limited to others.
    public var book: AddressBook
    /// The principal's access to ``book``: root mutations need it writable.
    public var bookAccess: BookAccess
    /// The books the token may open, among its principal's; `nil` for all of them.
    public var bookIDs: [String]?

    /// Picks the transaction author of a save: the requested one if allowed, else the token's own.
    func authorize(_ requested: String?) throws(AuthorRejected) -> String? {
        guard let first = authors.first else { return requested }
        guard let requested else { return first }
        guard authors.contains(requested) else {
            throw AuthorRejected("This token may not save as transaction author \"\(requested)\".")
        }
        return requested
    }

    /// The GraphQL layer's view of what this caller may do, on its book's store (held open by the caller).
    func graphQLContext(store: any ContactStore, tokens: AccessTokens, books: any AddressBookStores)
        -> GraphQLRequestContext
    {
        var context = GraphQLRequestContext()
        context.store = store
        let principalID = principalID
        context.viewer = GraphQLViewer(
            principalID: principalID, tokenID: tokenID, catalog: tokens.catalog, books: books, bookIDs: bookIDs,
            defaultBookID: book.id,
            defaultBookWritable: bookAccess.canWrite, scopes: Set(scopes.map(\.rawValue)), transactionAuthors: authors
        ) { name, scopes, authors, books in
            let made = try await tokens.create(
                name: name, scopes: Set(scopes.compactMap(AccessScope.init(rawValue:))), authors: authors,
                principalID: principalID, bookIDs: books)
            return (made.token, made.record)
        }
        context.allowedOperations = AccessScope.operations(scopes)
        context.disallowedCode = .forbidden
        context.accessNarrowed = { tokens.narrowed($0) }
        let identity = self
        context.authorizeAuthor = { requested throws(AuthorRejected) in try identity.authorize(requested) }
        return context
    }
}
