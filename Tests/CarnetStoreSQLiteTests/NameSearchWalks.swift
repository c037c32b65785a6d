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
        var forward: [String] = []
        var cursor: String?
        repeat {
            let page = try await store.contacts(
                ContactFetchRequest(
                    predicate: .matchingName(query), keysToFetch: [], sortOrder: order,
                    page: .first(size, after: cursor),
                    includeTotalCount: true))
            #expect(page.totalCount == expected.count, sourceLocation: sourceLocation)
            forward += page.contacts.map(\.identifier)
            cursor = page.hasNextPage ? page.cursors.last : nil
        } while cursor != nil
        #expect(forward == expected, "\(order) \(query) \(size)", sourceLocation: sourceLocation)
        var backward: [String] = []
        var before: String?
        repeat {
            let page = try await store.contacts(
                ContactFetchRequest(
                    predicate: .matchingName(query), keysToFetch: [], sortOrder: order,
                    page: .last(size, before: before)))
            backward = page.contacts.map(\.identifier) + backward
            before = page.hasPreviousPage ? page.cursors.first : nil
        } while before != nil
        #expect(backward == expected, "\(order) \(query) \(size) backward", sourceLocation: sourceLocation)
    }
    return expected
}
