import CarnetStore
import CarnetStoreTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import CarnetStorePostgres

/// A database of books-v6 whose names were folded without composing (``TextFolding/foldWithoutComposing(_:)``) is refolded
/// by books-v7: a decomposed name is found by its precomposed spelling, and every contact's sort keys and name rows,
/// the prefix counts, the unified contacts' rows and the groups' sort names are the ones a save writes today.
@Suite(
    "PostgreSQL upgrade to composed folding",
    .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
struct ComposedRefoldUpgradeTests {
    static let composed = "\u{D55C}\u{AD6D}"
    static let decomposed = "\u{1112}\u{1161}\u{11AB}\u{1100}\u{116E}\u{11A8}"
    let logger = Logger(label: "carnet.tests.refold")

    /// The rows books-v6 wrote for `contact`: its folded words once each by bytes, their prefixes, its sort keys.
    static func oldRows(_ contact: Contact) -> (words: [String], sortGiven: String, sortFamily: String) {
        let fold = TextFolding.foldWithoutComposing
        let names = ContactKey.searchableNameKeys.map { contact.storedString($0) }.filter { !$0.isEmpty }
        var seen: Set<[UInt8]> = []
        let words = fold(fold(names.joined(separator: " "))).split { !($0.isLetter || $0.isNumber) }.map(String.init)
            .filter { seen.insert(Array($0.utf8)).inserted }
        func sortKey(_ primary: ContactKey, _ secondary: ContactKey) -> String {
            let parts = [primary, secondary, .middleName].map { fold(contact.storedString($0)) }.filter { !$0.isEmpty }
            if !parts.isEmpty { return parts.joined(separator: "\u{1}") }
            let organization = fold(contact.organizationName)
            return organization.isEmpty ? "\u{FFFD}" : organization
        }
        return (words, sortKey(.givenName, .familyName), sortKey(.familyName, .givenName))
    }

    /// Writes the book's derived rows as books-v6 did, and marks books-v7 as not applied.
    func rewriteAsBefore(
        _ database: CarnetStorePostgres.PostgresDatabase, book: String, contacts: [Contact], groups: [Group]
    ) async throws {
        let logger = logger
        _ = try await database.write { connection in
            try await connection.rows("DELETE FROM contact_name_word WHERE book_id = \(book)", logger: logger)
            try await connection.rows("DELETE FROM contact_name_prefix WHERE book_id = \(book)", logger: logger)
            for contact in contacts {
                let old = Self.oldRows(contact)
                try await connection.rows(
                    """
                    UPDATE contact SET sort_given = \(old.sortGiven), sort_family = \(old.sortFamily)
                    WHERE book_id = \(book) AND id = \(contact.identifier)
                    """, logger: logger)
                try await connection.rows(
                    """
                    INSERT INTO contact_name_word (book_id, word, contact_id)
                    SELECT \(book), word, \(contact.identifier) FROM unnest(\(old.words)::text[]) AS word
                    """, logger: logger)
            }
            try await connection.rows(PostgresQuery(unsafeSQL: BookSchema.fillNamePrefixes), logger: logger)
            try await connection.rows(
                "UPDATE contact_name_prefix_count SET contacts = 0 WHERE book_id = \(book)", logger: logger)
            try await connection.rows(PostgresQuery(unsafeSQL: BookSchema.countNamePrefixes()), logger: logger)
            try await connection.rows("DELETE FROM contact_link_name WHERE book_id = \(book)", logger: logger)
            try await connection.rows(PostgresQuery(unsafeSQL: BookSchema.fillLinkedNames("")), logger: logger)
            for group in groups {
                try await connection.rows(
                    """
                    UPDATE contact_group SET sort_name = \(TextFolding.foldWithoutComposing(group.name))
                    WHERE book_id = \(book) AND id = \(group.identifier)
                    """, logger: logger)
            }
            try await connection.rows("DELETE FROM carnet_migration WHERE id = 'books-v7'", logger: logger)
        }
    }

    @Test("Upgrading refolds decomposed names: found by either spelling, with the rows a save writes")
    func upgrade() async throws {
        try await PostgresTestDatabase.with { location in
            let backend = try await PostgresBackend.open(location)
            let book = AddressBook(id: UUID().uuidString, name: "Refold", ownerID: "tests")
            let store = try await backend.postgresBooks.store(book)
            let standing = Make.person("Alpha", "Zed")
            let hidden = Make.person(Self.decomposed, "Park")
            let contacts = [
                standing, hidden, Make.person("\u{304B}\u{3099}\u{304F}", "Sato"), Make.person(Self.composed, "Kim"),
                Make.person("Ann", "Smith"),
            ]
            let groups = [Group(name: "\u{1112}\u{1161}\u{11AB} team"), Group(name: "\u{D558}")]
            var request = SaveRequest(transactionAuthor: "old")
            for contact in contacts { request.add(contact) }
            for group in groups { request.add(group) }
            request.link(contactsWithIdentifiers: [standing.identifier, hidden.identifier])
            request.setPreferredForName(contactWithIdentifier: standing.identifier)
            try await store.execute(request)
            try await rewriteAsBefore(backend.database, book: book.id, contacts: contacts, groups: groups)
            // The old rows have the bug: the precomposed spelling finds only the precomposed name.
            #expect(try await store.familyNames(matchingName: Self.composed) == ["Kim"])

            try await PostgresMigrations.migrate(backend.database)
            for query in [Self.composed, Self.decomposed, "\u{D55C}"] {
                #expect(
                    try await store.familyNames(matchingName: query) == ["Kim", "Park"], "\(query.debugDescription)")
                #expect(
                    try await store.familyNames(matchingName: query, unify: true) == ["Kim", "Zed"],
                    "\(query.debugDescription)")
            }
            #expect(try await store.familyNames(matchingName: "\u{304C}") == ["Sato"])
            #expect(
                try await store.groups().map { Array($0.name.utf8) } == [
                    Array("\u{D558}".utf8), Array(groups[0].name.utf8),
                ])
            let logger = logger
            let (words, counts) = try await backend.database.read { connection in
                let words = try await connection.rows(
                    """
                    SELECT contact_id, word, c.sort_given, c.sort_family FROM contact_name_word w
                    JOIN contact c ON c.book_id = w.book_id AND c.id = w.contact_id WHERE w.book_id = \(book.id)
                    """, logger: logger
                ).decode((String, String, String, String).self).array()
                let counts = try await connection.rows(
                    "SELECT prefix, contacts FROM contact_name_prefix_count WHERE book_id = \(book.id) AND contacts > 0",
                    logger: logger
                ).decode((String, Int64).self).array()
                return (words, counts)
            }
            var expectedCounts: [[UInt8]: Int64] = [:]
            for contact in contacts {
                let entry = NameIndexEntry(contact)
                let stored = words.filter { $0.0 == contact.identifier }
                #expect(Set(stored.map { Array($0.1.utf8) }) == Set(entry.words.map { Array($0.utf8) }))
                for row in stored {
                    #expect(
                        Array(row.2.utf8) == Array(entry.sortGiven.utf8)
                            && Array(row.3.utf8) == Array(entry.sortFamily.utf8))
                }
                for prefix in entry.prefixes { expectedCounts[Array(prefix.utf8), default: 0] += 1 }
            }
            #expect(Dictionary(uniqueKeysWithValues: counts.map { (Array($0.0.utf8), $0.1) }) == expectedCounts)

            // The rows the upgrade wrote are the ones later saves remove.
            var rename = Contact(updating: hidden.identifier)
            rename.givenName = "Bo"
            try await store.execute(SaveRequest(operations: [.updateContact(rename, baseRevision: nil)]))
            #expect(try await store.familyNames(matchingName: Self.composed, unify: true) == ["Kim"])
            #expect(try await store.familyNames(matchingName: "bo", unify: true) == ["Zed"])
            try await backend.close()
        }
    }
}
