import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

@Suite("Cursor pagination")
struct PaginationTests {
    static let families = ["Ábalos", "Baker", "baker", "Çelik", "Dupont", "Łukasz", "Müller", "Núñez", "Smith", "Zed"]

    func seed(_ store: any ContactStore, count: Int, prefix: String) async throws -> [String] {
        let contacts = (0..<count).map { index in
            Make.person("\(prefix)\(index % 7)", Self.families[index % Self.families.count])
        }
        try await store.add(contacts)
        return contacts.map(\.identifier)
    }

    @Test(
        "Pages neither repeat nor skip unchanged contacts while others insert and delete",
        arguments: StoreKind.available, [ContactSortOrder.none, .givenName, .familyName])
    func stableUnderConcurrentChanges(kind: StoreKind, order: ContactSortOrder) async throws {
        let store = try await StoreFixture(kind).store
        let initial = try await seed(store, count: 120, prefix: "P")
        var deleted = Set<String>()
        var seen: [String] = []
        var cursor: String?
        var round = 0
        repeat {
            let page = try await store.contacts(
                ContactFetchRequest(
                    keysToFetch: [.givenName, .familyName], sortOrder: order, page: .first(9, after: cursor)))
            seen += page.contacts.map(\.identifier)
            cursor = page.cursors.last
            // Meanwhile: another client adds contacts and deletes some seen and some unseen ones.
            round += 1
            _ = try await seed(store, count: 3, prefix: "N\(round)-")
            let victims = [initial[(round * 17) % initial.count], initial[(round * 29 + 5) % initial.count]]
                .filter { !deleted.contains($0) }
            var request = SaveRequest()
            for victim in victims { request.delete(contactWithIdentifier: victim) }
            try await store.execute(request)
            deleted.formUnion(victims)
            if !page.hasNextPage { break }
        } while true
        #expect(Set(seen).count == seen.count, "a contact came twice")
        let unchanged = Set(initial).subtracting(deleted)
        #expect(unchanged.isSubset(of: Set(seen)), "an unchanged contact was skipped")
    }

    @Test("Pages are in sort order, forwards and backwards", arguments: StoreKind.available)
    func forwardAndBackward(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        _ = try await seed(store, count: 40, prefix: "Q")
        try await store.add([Make.person("", "")])  // no name at all: sorts last
        let all = try await store.contacts(
            ContactFetchRequest(
                keysToFetch: [.familyName, .givenName], sortOrder: .familyName, page: .first(1000),
                includeTotalCount: true))
        #expect(all.totalCount == 41)
        #expect(all.contacts.last?.familyName == "")
        let folded = all.contacts.dropLast().map { TextFolding.fold($0.familyName) }
        #expect(folded == folded.sorted())

        var forward: [String] = []
        var cursor: String?
        repeat {
            let page = try await store.contacts(
                ContactFetchRequest(
                    keysToFetch: [], sortOrder: .familyName, page: .first(6, after: cursor)))
            forward += page.contacts.map(\.identifier)
            cursor = page.hasNextPage ? page.cursors.last : nil
        } while cursor != nil
        var backward: [String] = []
        var before: String?
        repeat {
            let page = try await store.contacts(
                ContactFetchRequest(
                    keysToFetch: [], sortOrder: .familyName, page: .last(6, before: before)))
            backward = page.contacts.map(\.identifier) + backward
            before = page.hasPreviousPage ? page.cursors.first : nil
        } while before != nil
        #expect(forward == all.contacts.map(\.identifier))
        #expect(backward == forward)
    }

    @Test("Bad cursors and page sizes are clear errors", arguments: StoreKind.available)
    func badInput(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        _ = try await seed(store, count: 5, prefix: "R")
        let page = try await store.contacts(
            ContactFetchRequest(keysToFetch: [], sortOrder: .givenName, page: .first(2)))
        for request in [
            ContactFetchRequest(keysToFetch: [], page: .first(0)),
            ContactFetchRequest(keysToFetch: [], page: .first(1001)),
            ContactFetchRequest(keysToFetch: [], page: .first(2, after: "garbage!")),
            ContactFetchRequest(keysToFetch: [], sortOrder: .familyName, page: .first(2, after: page.cursors[0])),
            ContactFetchRequest(predicate: .matchingName(String(repeating: "a ", count: 600)), keysToFetch: []),
            // Short enough, but 13 words, each a read of the name index.
            ContactFetchRequest(predicate: .matchingName(String(repeating: "a ", count: 13)), keysToFetch: []),
            ContactFetchRequest(predicate: .withIdentifiers((0...1000).map { "id\($0)" }), keysToFetch: []),
        ] {
            let error = await #expect(throws: StoreError.self) { try await store.contacts(request) }
            #expect(error?.code == .predicateInvalid)
        }
        let count = await #expect(throws: StoreError.self) {
            try await store.contactCount(matching: .matchingName(String(repeating: "r ", count: 13)))
        }
        #expect(count?.code == .predicateInvalid)
        let twelve = ContactFetchRequest(predicate: .matchingName(String(repeating: "r ", count: 12)), keysToFetch: [])
        #expect(try await store.contacts(twelve).contacts.count == 5)
    }
}

@Suite("Cursors across books")
struct CrossBookCursorTests {
    /// An outside tester's find: another book's cursor was taken for a position here, and the page was silently
    /// some other page.
    @Test(
        "A contacts or duplicate-candidates cursor from another book's page is refused", arguments: StoreKind.available)
    func refused(kind: StoreKind) async throws {
        let here = try await StoreFixture(kind).store
        let there = try await StoreFixture(kind).store
        for store in [here, there] {
            try await store.add([
                Make.person("Anna", "Smith"), Make.person("Anna", "Smith"), Make.person("Bob", "Jones"),
                Make.person("Bob", "Jones"),
            ])
        }
        for unify in [false, true] {
            for order in [ContactSortOrder.none, .familyName] {
                var request = ContactFetchRequest(keysToFetch: [.givenName], sortOrder: order, page: .first(2))
                request.unifyResults = unify
                // The second of four: a contact comes before it and two after, in its own book.
                let cursor = try #require(try await there.contacts(request).cursors.last)
                for page in [PageRequest.first(1, after: cursor), .last(1, before: cursor)] {
                    request.page = page
                    let code = await CatalogTests.code { try await here.contacts(request) }
                    #expect(code == .predicateInvalid, "\(page) unify \(unify)")
                    #expect(try await there.contacts(request).contacts.count == 1, "\(page) unify \(unify)")
                }
            }
        }
        let candidates = try await there.duplicateCandidates(DuplicateCandidateRequest(first: 1))
        #expect(candidates.hasNextPage)
        let after = DuplicateCandidateRequest(first: 1, after: candidates.cursor(at: 0))
        #expect(await CatalogTests.code { try await here.duplicateCandidates(after) } == .predicateInvalid)
        #expect(try await there.duplicateCandidates(after).candidates.count == 1)
    }
}
