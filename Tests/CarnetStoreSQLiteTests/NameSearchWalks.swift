import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore
@testable import CarnetStoreSQLite

/// Every match of a name search in an order, walked in pages of `size` from `start`, with the total count.
func walkNameSearch(
    _ store: SQLiteStore, _ query: String, order: ContactSortOrder, size: Int, after start: String? = nil
)
    async throws -> (names: [String], ids: [String], total: Int?)
{
    var names: [String] = []
    var ids: [String] = []
    var total: Int?
    var cursor = start
    repeat {
        let page = try await store.contacts(
            ContactFetchRequest(
                predicate: .matchingName(query), keysToFetch: [.givenName, .familyName], sortOrder: order,
                page: .first(size, after: cursor), includeTotalCount: true))
        names += Make.names(page)
        ids += page.contacts.map(\.identifier)
        total = page.totalCount
        cursor = page.hasNextPage ? page.cursors.last : nil
    } while cursor != nil
    return (names, ids, total)
}

/// Expects `store` to find what `reference` finds for each query, in every order, walked in small and large pages,
/// and every page walk to reach its total: the check that a migrated store searches like a new one.
func expectSameNameSearches(
    _ store: SQLiteStore, as reference: SQLiteStore, queries: [String], sizes: [Int] = [7, 1000],
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    for query in queries {
        for order in [ContactSortOrder.familyName, .givenName, .none] {
            for size in sizes {
                let found = try await walkNameSearch(store, query, order: order, size: size)
                let expected = try await walkNameSearch(reference, query, order: order, size: size)
                #expect(found.ids == expected.ids, "\(query) \(order) \(size)", sourceLocation: sourceLocation)
                #expect(found.total == expected.total, "\(query) \(order) \(size)", sourceLocation: sourceLocation)
                #expect(found.ids.count == found.total, "\(query) \(order) \(size)", sourceLocation: sourceLocation)
            }
        }
    }
}

/// Runs the same saves on a migrated store and on a new one, then expects the same derived rows, a sound name
/// index and the same name searches: the migrated index must change under later saves as a new one does.
func expectSameAfterSaves(
    _ edits: SaveRequest, on store: SQLiteStore, as reference: SQLiteStore, queries: [String],
    sizes: [Int] = [7, 1000],
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    try await store.execute(edits)
    try await reference.execute(edits)
    #expect(
        try await store.writer.read(DerivedRows.read) == reference.writer.read(DerivedRows.read),
        sourceLocation: sourceLocation)
    try await store.writer.write(PrefixIndexMigrationTests.integrityCheck)
    try await expectSameNameSearches(
        store, as: reference, queries: queries, sizes: sizes, sourceLocation: sourceLocation)
}

/// Walks a name search forward and backward in pages of each size and expects, every way, the contacts that the
/// same search restricted to `everyone` returns in one page: naming identifiers takes the general path, the
/// reference for the ordered name index. - Returns: those contacts.
@discardableResult
func expectPagesMatchGeneralPath(
    _ store: SQLiteStore, _ query: String, order: ContactSortOrder, everyone: [String], sizes: [Int],
    sourceLocation: SourceLocation = #_sourceLocation
) async throws -> [String] {
    let expected = try await store.contacts(
        ContactFetchRequest(
            predicate: ContactPredicate(matchingName: query, identifiers: everyone), keysToFetch: [],
            sortOrder: order, page: .first(1000))
    ).contacts.map(\.identifier)
    for size in sizes {
        let walked = try await walkNameSearch(store, query, order: order, size: size, counting: true)
        for total in walked.totals { #expect(total == expected.count, sourceLocation: sourceLocation) }
        #expect(walked.forward == expected, "\(order) \(query) \(size)", sourceLocation: sourceLocation)
        #expect(walked.backward == expected, "\(order) \(query) \(size) backward", sourceLocation: sourceLocation)
    }
    return expected
}

/// A name search walked forward and backward in pages of `size`: the contacts each way, in order, and the total each
/// forward page reported when `counting`. Each way stops past `limit` contacts, so a search whose pages never end
/// still returns (and fails its expectation).
func walkNameSearch(
    _ store: SQLiteStore, _ query: String, order: ContactSortOrder, size: Int, unify: Bool = false,
    counting: Bool = false, limit: Int = .max
) async throws -> (forward: [String], backward: [String], totals: [Int?]) {
    var forward: [String] = []
    var totals: [Int?] = []
    var cursor: String?
    repeat {
        var request = ContactFetchRequest(
            predicate: .matchingName(query), keysToFetch: [], sortOrder: order, page: .first(size, after: cursor),
            includeTotalCount: counting)
        request.unifyResults = unify
        let page = try await store.contacts(request)
        if counting { totals.append(page.totalCount) }
        forward += page.contacts.map(\.identifier)
        cursor = page.hasNextPage ? page.cursors.last : nil
    } while cursor != nil && forward.count <= limit
    var backward: [String] = []
    var before: String?
    repeat {
        var request = ContactFetchRequest(
            predicate: .matchingName(query), keysToFetch: [], sortOrder: order, page: .last(size, before: before))
        request.unifyResults = unify
        let page = try await store.contacts(request)
        backward = page.contacts.map(\.identifier) + backward
        before = page.hasPreviousPage ? page.cursors.first : nil
    } while before != nil && backward.count <= limit
    return (forward, backward, totals)
}
