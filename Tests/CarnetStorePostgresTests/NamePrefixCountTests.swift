import CarnetStore
import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import PostgresNIO
import Testing

@testable import CarnetStorePostgres

/// The per-book prefix counts a name search of several words chooses its driver by: after any mix of adds,
/// renames and deletes they equal a count of the prefix rows.
@Suite(
    "PostgreSQL name prefix counts", .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
struct NamePrefixCountTests {
    /// Prefixes whose stored count differs from their rows', as "prefix: stored/actual".
    static func mismatches(_ store: PostgresStore) async throws -> [String] {
        try await store.read { connection in
            try await connection.rows(
                """
                SELECT coalesce(n.prefix, r.prefix), coalesce(n.contacts, 0), coalesce(r.contacts, 0)
                FROM (SELECT prefix, contacts FROM contact_name_prefix_count WHERE book_id = \(store.bookID)
                        AND contacts <> 0) n
                FULL JOIN (SELECT prefix, count(*) AS contacts FROM contact_name_prefix
                        WHERE book_id = \(store.bookID) GROUP BY prefix) r ON r.prefix = n.prefix
                WHERE coalesce(n.contacts, 0) <> coalesce(r.contacts, 0)
                """, logger: store.logger
            ).decode((String, Int64, Int64).self).array().map { "\($0.0): \($0.1)/\($0.2)" }
        }
    }

    @Test("Counts follow adds, renames and deletes")
    func countsFollowSaves() async throws {
        let seed = SeededRandom.seed(from: "CARNET_PREFIX_COUNT_SEED")
        let store = try await PostgresTestDatabase.newBook(configuration: StoreConfiguration())
        var random = SeededRandom(seed: seed)
        let names = ["Anna", "Annabel", "José", "Joseph", "Müller", "Smith", "Zoë", "Ørsted", "Lars", "Chen", ""]
        var live: [String] = []
        for _ in 0..<6 {
            let contacts = (0..<12).map { _ in Make.person(random.pick(names)!, random.pick(names)!) }
            try await store.add(contacts)
            live += contacts.map(\.identifier)
            // One save adds, renames and deletes: its counts change once, at its end, by the sum of its changes.
            var request = SaveRequest()
            for _ in 0..<3 {
                let added = Make.person(random.pick(names)!, random.pick(names)!)
                request.add(added)
                live.append(added.identifier)
            }
            for id in Set((0..<5).compactMap { _ in random.pick(Array(live.dropLast(3))) }) {
                if random.chance(40) {
                    request.delete(contactWithIdentifier: id)
                    live.removeAll { $0 == id }
                } else {
                    var contact = try #require(
                        try await store.contacts(
                            ContactFetchRequest(predicate: .withIdentifiers([id]), keysToFetch: [.givenName])
                        ).contacts.first)
                    contact.givenName = random.pick(names)!
                    request.update(contact)
                }
            }
            try await store.execute(request)
        }
        #expect(try await Self.mismatches(store) == [], "seed \(seed) (CARNET_PREFIX_COUNT_SEED replays it)")
        #expect(
            try await store.read { connection in
                try await connection.rows(
                    "SELECT count(*) FROM contact_name_prefix_count WHERE book_id = \(store.bookID) AND contacts > 0",
                    logger: store.logger
                ).decode(Int64.self).array().first ?? 0
            } > 0)
    }
}

/// The in-process cache of those counts: used while fresh, per book, bounded.
@Suite("Name prefix count cache")
struct NamePrefixCountCacheTests {
    @Test("A count is used for a minute, for its own book only, and the cache stays within its capacity")
    func freshnessAndBound() {
        let cache = NamePrefixCounts()
        let start = ContinuousClock.now
        cache.remember(book: "a", counts: ["ann": 7, "sm": 0], read: start)
        #expect(
            cache.cached(book: "a", prefixes: ["ann", "sm", "jo"], now: start + .seconds(59)) == ["ann": 7, "sm": 0])
        #expect(cache.cached(book: "b", prefixes: ["ann"], now: start).isEmpty)
        #expect(cache.cached(book: "a", prefixes: ["ann"], now: start + NamePrefixCounts.lifetime).isEmpty)
        let many = Dictionary(uniqueKeysWithValues: (0..<NamePrefixCounts.capacity).map { ("p\($0)", Int64($0)) })
        cache.remember(book: "c", counts: many, read: start)
        // Past the capacity the cache started again: the first book's entries are gone, the new ones kept.
        #expect(cache.cached(book: "a", prefixes: ["ann"], now: start).isEmpty)
        #expect(cache.cached(book: "c", prefixes: ["p1"], now: start) == ["p1": 1])
    }
}
