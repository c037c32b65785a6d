import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import GRDB
import Testing

@testable import CarnetStore
@testable import CarnetStoreSQLite

/// A key that sorts before another never falls in a later bucket of the name index, or an ordered name search
/// skips contacts between pages (found by an outside fuzzer: "Ann F1", "Zed F1" and "Ann F2", all of Acme, paged
/// one at a time by family name, gave the first two only).
@Suite("Name index buckets keep the sort order")
struct BucketOrderTests {
    static let alphabet = ["a", "n", "z", "1", "2", " ", "-", "'", "\u{1}", "李", "王", "é"]

    @Test("Random keys: a key before another is never in a later bucket")
    func monotone() {
        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SeededRandom(seed: seed)
        let keys = (0..<400).map { _ in (0..<random.int(0...10)).map { _ in random.pick(Self.alphabet)! }.joined() }
        let sorted = keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        for (first, second) in zip(sorted, sorted.dropFirst()) {
            #expect(NameIndex.bucket(first) <= NameIndex.bucket(second), "seed \(seed): \(first) / \(second)")
        }
        #expect(NameIndex.bucket("f1\u{1}zed") <= NameIndex.bucket("f2\u{1}ann"))
    }

    static func request() -> SaveRequest {
        var request = SaveRequest(transactionAuthor: "buckets")
        for (given, family) in [
            ("Ann", "F1"), ("Zed", "F1"), ("Ann", "F2"), ("F1", "Ann"), ("F1", "Zed"), ("F2", "Ann"),
            ("Jean Luc", "Acme"), ("Jean-Al", "Acme"), ("李", "Wu"), ("王", "An"), ("Jo-Ann", "X"), ("Jo Zed", "X"),
        ] {
            request.add(Make.person(given, family, organization: "Acme"))
        }
        return request
    }

    @Test("Every page of a search whose keys differ first at a digit, a space or a hyphen", arguments: StoreKind.sqlite)
    func pagesKeepEveryContact(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).sqliteStore
        try await store.execute(Self.request())
        let everyone = try await store.contacts(ContactFetchRequest(keysToFetch: [])).contacts.map(\.identifier)
        for order in [ContactSortOrder.familyName, .givenName] {
            for query in ["acme", "a", "f", "j"] {
                let expected = try await expectPagesMatchGeneralPath(
                    store, query, order: order, everyone: everyone, sizes: [1, 2, 5])
                if query == "acme" { #expect(expected.count == 12) }
            }
        }
        try await store.close()
    }

    @Test("A store of v11 gets monotone buckets and pages its searches whole", arguments: StoreKind.sqlite)
    func migrate(kind: StoreKind) async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let earlier = try EarlierStore(
            kind, at: "v11", directory: directory, request: Self.request(),
            rewrite: EarlierNameIndexLayout.sevenCharacters.rewrite)
        let changed = try await earlier.writer.read { db throws in
            try Row.fetchAll(db, sql: "SELECT rowid, sortFamily, ftsFamily FROM contact").filter {
                ($0[2] as Int64) != NameIndex.bucket($0[1]) | ($0[0] as Int64)
            }.count
        }
        #expect(changed > 0, "the old layout differs for some of these keys")
        let store = try earlier.open()
        try await store.writer.read(WideNameIndexTests.checkLayout)
        let everyone = try await store.contacts(ContactFetchRequest(keysToFetch: [])).contacts.map(\.identifier)
        for order in [ContactSortOrder.familyName, .givenName] {
            try await expectPagesMatchGeneralPath(store, "acme", order: order, everyone: everyone, sizes: [1, 3])
        }
        try await store.close()
    }
}
