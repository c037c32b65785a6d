import CarnetStore
import CarnetStoreTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import CarnetStorePostgres

/// A database made before the name prefixes existed (books-v1) gains them on upgrade: every contact's prefix rows
/// and counts are the ones a save writes (``NameIndexEntry``), built in SQL from the name words already stored.
@Suite(
    "PostgreSQL upgrade to name prefixes",
    .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
struct NamePrefixUpgradeTests {
    static let contacts: [Contact] = {
        var long = Make.person("Anna", "Smith")
        // A word list past an index row's limit: stored as none, as a save stores it.
        long.middleName = (0..<100).map { "filler\($0)" }.joined(separator: " ")
        return [
            Make.person("José", "Núñez"), Make.person("Αλέξανδρος", "Παπαδόπουλος"), Make.person("山田", "太郎"),
            Make.person("Zoë", "O'Brien-Ørsted"), Make.person("", "", organization: "Acme Corp"), Make.person("", ""),
            Make.person("Jo", "Jo"), long,
        ]
    }()

    @Test("Upgrading indexes every stored contact's name prefixes as a save would")
    func upgradeMatchesSaves() async throws {
        try await PostgresTestDatabase.with { location in
            let logger = Logger(label: "carnet.tests.upgrade")
            let database = try await PostgresDatabase.connect(location, logger: logger)
            try await PostgresMigrations.migrate(database, [CatalogSchema.v1, BookSchema.v1])
            let book = "book-1"
            _ = try await database.write { connection in
                try await connection.rows(
                    """
                    INSERT INTO container (book_id, id, name, type, is_default, revision, created_at, modified_at)
                    VALUES (\(book), 'k', 'Local', 1, true, 1, 0, 0)
                    """, logger: logger)
                for (order, contact) in Self.contacts.enumerated() {
                    try await connection.rows(
                        """
                        INSERT INTO contact (book_id, id, container_id, given_name, middle_name, family_name,
                            organization_name, sort_given, sort_family, created_order, created_revision, revision,
                            created_at, modified_at)
                        VALUES (\(book), \(contact.identifier), 'k', \(contact.givenName), \(contact.middleName),
                            \(contact.familyName), \(contact.organizationName),
                            \(ContactIndexing.sortKey(contact, .givenName)),
                            \(ContactIndexing.sortKey(contact, .familyName)), \(Int64(order)), 1, 1, 0, 0)
                        """, logger: logger)
                    let words = BookSchema.nameWords(contact)
                    try await connection.rows(
                        """
                        INSERT INTO contact_name_word (book_id, word, contact_id)
                        SELECT \(book), word, \(contact.identifier) FROM unnest(\(words)::text[]) AS word
                        """, logger: logger)
                }
            }
            try await PostgresMigrations.migrate(database)
            let (rows, counts) = try await database.read { connection in
                let rows = try await connection.rows(
                    """
                    SELECT contact_id, prefix, sort_given, sort_family, words FROM contact_name_prefix
                    WHERE book_id = \(book)
                    """, logger: logger
                ).decode((String, String, String, String, String?).self).array()
                let counts = try await connection.rows(
                    "SELECT prefix, contacts FROM contact_name_prefix_count WHERE book_id = \(book)", logger: logger
                ).decode((String, Int64).self).array()
                return (rows, counts)
            }
            await database.close()
            var expectedCounts: [String: Int64] = [:]
            for contact in Self.contacts {
                let entry = NameIndexEntry(contact)
                let stored = rows.filter { $0.0 == contact.identifier }
                #expect(Set(stored.map(\.1)) == Set(entry.prefixes), "\(contact.givenName) \(contact.familyName)")
                #expect(stored.count == entry.prefixes.count)
                for row in stored {
                    #expect(row.2 == entry.sortGiven && row.3 == entry.sortFamily && row.4 == entry.wordList)
                }
                for prefix in entry.prefixes { expectedCounts[prefix, default: 0] += 1 }
            }
            #expect(rows.contains { $0.4 == nil }, "the long word list is stored as none")
            #expect(Dictionary(uniqueKeysWithValues: counts.map { ($0.0, $0.1) }) == expectedCounts)
        }
    }
}
