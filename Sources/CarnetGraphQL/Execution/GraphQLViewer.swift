import CarnetStore

/// Who asks, on a service of many principals and address books: what `viewer` and `addressBooks` read.
public struct GraphQLViewer: Sendable {
    public var principalID: String
    public var catalog: Catalog
    /// The books the token may open, among its principal's; `nil` for all of them.
    public var bookIDs: [String]?
    /// The book the root fields mean.
    public var defaultBookID: String

    public init(principalID: String, catalog: Catalog, bookIDs: [String]?, defaultBookID: String) {
        self.principalID = principalID
        self.catalog = catalog
        self.bookIDs = bookIDs
        self.defaultBookID = defaultBookID
    }

    /// The books this token may open now, as its principal sees them.
    func books() async throws -> [VisibleBook] {
        let visible = try await catalog.books(visibleTo: principalID)
        guard let bookIDs else { return visible }
        return visible.filter { bookIDs.contains($0.book.id) }
    }
}
