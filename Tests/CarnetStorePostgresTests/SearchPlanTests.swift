import CarnetStore
import CarnetStoreTestSupport
import Foundation
import PostgresNIO
import Testing

@testable import CarnetStorePostgres

/// Every search shape runs from its index: the plan PostgreSQL chooses for a book of 20,000 contacts (among other
/// books' rows) never scans the contact table. Names are spread as real ones are (a typed prefix matches a few
/// contacts, not half the book, where reading the table would be the better plan).
@Suite("PostgreSQL search plans", .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
struct PostgresSearchPlanTests {
    /// Fills a book with synthetic rows straight in SQL (a save per contact would take minutes), then analyses.
    func seed(_ store: PostgresStore, count: Int, group: String) async throws {
        let (book, logger) = (store.bookID, store.logger)
        let container = try await store.defaultContainer().identifier
        let count = Int64(count)
        _ = try await store.database.write { connection in
            try await connection.rows(
                """
                INSERT INTO contact (book_id, id, container_id, given_name, family_name, sort_given, sort_family,
                    created_order, created_revision, revision, created_at, modified_at)
                SELECT \(book), 'c' || i, \(container), 'Given' || left(md5(i::text), 8), 'Family' || (i % 500),
                    'given' || left(md5(i::text), 8) || chr(1) || 'family' || (i % 500),
                    'family' || (i % 500) || chr(1) || 'given' || left(md5(i::text), 8), i, 1, 1, 0, 0
                FROM generate_series(1, \(count)) i
                """, logger: logger)
            try await connection.rows(
                """
                INSERT INTO contact_name_word (book_id, word, contact_id)
                SELECT \(book), 'given' || left(md5(i::text), 8), 'c' || i FROM generate_series(1, \(count)) i
                UNION ALL SELECT \(book), 'family' || (i % 500), 'c' || i FROM generate_series(1, \(count)) i
                """, logger: logger)
            try await connection.rows(PostgresQuery(unsafeSQL: BookSchema.fillNamePrefixes), logger: logger)
            for (kind, prefix) in [(Int16(2), "u"), (Int16(1), "555")] {
                try await connection.rows(
                    """
                    INSERT INTO labeled_value (book_id, id, contact_id, kind, position, value, search_key,
                        created_revision, revision)
                    SELECT \(book), \(prefix) || '-' || i, 'c' || i, \(kind), 0, \(prefix) || i, \(prefix) || i, 1, 1
                    FROM generate_series(1, \(count)) i
                    """, logger: logger)
            }
            try await connection.rows(
                """
                INSERT INTO contact_group (book_id, id, container_id, name, sort_name, created_order, created_revision,
                    name_revision, revision, created_at, modified_at)
                VALUES (\(book), \(group), \(container), 'Friends', 'friends', 1, 1, 1, 1, 0, 0)
                """, logger: logger)
            try await connection.rows(
                """
                INSERT INTO group_member (book_id, group_id, contact_id, group_order, contact_order)
                SELECT \(book), \(group), 'c' || i, 1, i FROM generate_series(1, 100) i
                """, logger: logger)
            try await connection.rows(
                "UPDATE book_store SET contact_count = \(count) WHERE book_id = \(book)", logger: logger)
        }
        _ = try await store.read { connection in try await connection.rows("ANALYZE", logger: logger) }
    }

    @Test("Name, email, phone, group and container searches, in every order, never scan contacts")
    func noSequentialScans() async throws {
        try await PostgresTestDatabase.with { location in
            let backend = try await PostgresBackend.open(location)
            let book = AddressBook(id: UUID().uuidString, name: "Big", ownerID: "tests")
            let store = try await backend.postgresBooks.store(book)
            let other = try await backend.postgresBooks.store(
                AddressBook(id: UUID().uuidString, name: "Other", ownerID: "tests"))
            try await seed(store, count: 20_000, group: "g1")
            try await seed(other, count: 5_000, group: "g2")
            let container = try await store.defaultContainer().identifier
            let predicates: [ContactPredicate] = [
                .matchingName("givenab1"), .matchingName("family123 givena"), .matchingEmailAddress("u77"),
                .matchingPhoneNumber("5551234567"), .inGroup("g1"),
                ContactPredicate(matchingName: "family1", matchingEmailAddress: "u2"),
                ContactPredicate(matchingName: "givenc0", containerIdentifier: container),
            ]
            for predicate in predicates {
                for order in [ContactSortOrder.none, .givenName, .familyName] {
                    let fetch = PostgresContactFetch(
                        request: ContactFetchRequest(predicate: predicate, keysToFetch: [.givenName], sortOrder: order),
                        order: order, store: store)
                    let (query, _, _) = try #require(
                        try fetch.pageQuery(
                            PostgresContactLoader(keys: [.givenName]), count: 50, cursor: nil, backward: false,
                            nameSearch: PostgresNameSearch(predicate, order: order)))
                    let plan = try await store.read { connection in
                        try await connection.rows(
                            PostgresQuery(unsafeSQL: "EXPLAIN " + query.sql, binds: query.binds), logger: store.logger
                        ).decode(String.self).array()
                    }.joined(separator: "\n")
                    #expect(!plan.contains("Seq Scan on contact "), "\(predicate) \(order):\n\(plan)")
                    #expect(!plan.contains("Seq Scan on labeled_value"), "\(predicate) \(order):\n\(plan)")
                    #expect(!plan.contains("Seq Scan on contact_name_word"), "\(predicate) \(order):\n\(plan)")
                    #expect(!plan.contains("Seq Scan on contact_name_prefix"), "\(predicate) \(order):\n\(plan)")
                    if predicate.matchingName != nil, order != .none {
                        // A name order reads the prefix rows in page order: no sort of the matches.
                        #expect(plan.contains("contact_name_prefix_"), "\(predicate) \(order):\n\(plan)")
                    }
                }
            }
            try await backend.close()
        }
    }

    /// A unified search finds unified contacts through their other members from those members' own index rows, in
    /// page order (``BookSchema/v5``): it does not read every hidden member of the book, as it did before.
    @Test("A unified name search reads the linked members' name rows in page order")
    func unifiedSearchReadsLinkedNames() async throws {
        try await PostgresTestDatabase.with { location in
            let backend = try await PostgresBackend.open(location)
            let store = try await backend.postgresBooks.store(
                AddressBook(id: UUID().uuidString, name: "Linked", ownerID: "tests"))
            try await seed(store, count: 20_000, group: "g1")
            let (book, logger) = (store.bookID, store.logger)
            // A fifth of the book linked in pairs: the first of each pair stands for it, the second is hidden.
            _ = try await store.database.write { connection in
                try await connection.rows(
                    """
                    INSERT INTO contact_link (book_id, contact_id, unified_id, preferred_for_name, preferred_for_image)
                    SELECT \(book), 'c' || i, 'u' || ((i + 1) / 2), i % 2 = 1, i % 2 = 1
                    FROM generate_series(1, 4000) i
                    """, logger: logger)
                try await connection.rows(
                    """
                    UPDATE contact SET link_hidden = true
                    WHERE book_id = \(book) AND id IN (SELECT 'c' || i FROM generate_series(2, 4000, 2) i)
                    """, logger: logger)
                var bindings = PostgresBindings()
                bindings.append(book)
                try await connection.rows(
                    PostgresQuery(unsafeSQL: BookSchema.fillLinkedNames("lh.book_id = $1"), binds: bindings),
                    logger: logger)
            }
            _ = try await store.read { connection in try await connection.rows("ANALYZE", logger: logger) }
            let container = try await store.defaultContainer().identifier
            for inner in [
                ContactPredicate.matchingName("family12"), .matchingName("family123 givena"),
                ContactPredicate(matchingName: "givenc0", containerIdentifier: container),
            ] {
                for order in [ContactSortOrder.givenName, .familyName] {
                    var predicate = ContactPredicate()
                    predicate.linkedMembers = .standingForOthersMatching(inner)
                    let fetch = PostgresContactFetch(
                        request: ContactFetchRequest(predicate: predicate, keysToFetch: [], sortOrder: order),
                        order: order, store: store)
                    let search = try #require(PostgresNameSearch(predicate, order: order))
                    let (query, _, _) = try #require(
                        try fetch.pageQuery(
                            PostgresContactLoader(keys: []), count: 50, cursor: nil, backward: false,
                            nameSearch: search))
                    let plan = try await store.read { connection in
                        try await connection.rows(
                            PostgresQuery(unsafeSQL: "EXPLAIN " + query.sql, binds: query.binds), logger: store.logger
                        ).decode(String.self).array()
                    }.joined(separator: "\n")
                    let index = order == .givenName ? "contact_link_name_given" : "contact_link_name_family"
                    #expect(plan.contains(index), "\(inner) \(order):\n\(plan)")
                    #expect(!plan.contains("contact_link_hidden"), "\(inner) \(order):\n\(plan)")
                    #expect(!plan.contains("Seq Scan on contact"), "\(inner) \(order):\n\(plan)")
                    #expect(!plan.contains("Sort"), "\(inner) \(order):\n\(plan)")
                }
            }
            try await backend.close()
        }
    }

    /// An update through a unified contact based on an old revision looks for link changes of its members from the
    /// partial index of link changes (``BookSchema/v8``): over `change_event_seq` it read every event since the
    /// base under the book's save lock.
    @Test("The link-change check of a unified update reads its partial index, not the history since the base")
    func linkChangeCheckUsesItsIndex() async throws {
        try await PostgresTestDatabase.with { location in
            let backend = try await PostgresBackend.open(location)
            let store = try await backend.postgresBooks.store(
                AddressBook(id: UUID().uuidString, name: "History", ownerID: "tests"))
            let (book, logger) = (store.bookID, store.logger)
            // 50,000 events, one in a hundred a link change (an update with no keys).
            _ = try await store.database.write { connection in
                try await connection.rows(
                    """
                    INSERT INTO change_event (book_id, position, seq, kind, record_id, changed_keys)
                    SELECT \(book), i, i, 2, 'c' || (i % 5000),
                        CASE WHEN i % 100 = 0 THEN '' ELSE 'givenName' END
                    FROM generate_series(1, 50000) i
                    """, logger: logger)
            }
            _ = try await store.read { connection in try await connection.rows("ANALYZE", logger: logger) }
            let query = PostgresSaveTransaction.linkChangeQuery(
                book: book, members: ["c17", "c4242"], since: 1, excluding: 50_001)
            let plan = try await store.read { connection in
                try await connection.rows(
                    PostgresQuery(unsafeSQL: "EXPLAIN " + query.sql, binds: query.binds), logger: logger
                ).decode(String.self).array()
            }.joined(separator: "\n")
            #expect(plan.contains("change_event_link_change"), "\(plan)")
            #expect(!plan.contains("Seq Scan on change_event"), "\(plan)")
            try await backend.close()
        }
    }
}
