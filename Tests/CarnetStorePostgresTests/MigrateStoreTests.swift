import CarnetStore
import CarnetStoreSQLite
import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import Testing

@testable import CarnetStorePostgres

/// `carnet migrate-store`: a data folder copied to PostgreSQL keeps every principal, token, grant, record,
/// identifier, revision and history event, and every history token a client holds goes on working.
@Suite(
    "Copying a data folder to PostgreSQL",
    .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
struct MigrateStoreTests {
    @Test("Everything a client can see is the same on both, and its tokens continue")
    func copyKeepsEverything() async throws {
        let seed = SeededRandom.seed(from: "CARNET_MIGRATION_SEED")
        print("migrate-store: seed \(seed) (CARNET_MIGRATION_SEED=\(seed) replays it)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-migrate-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let folder = try await DataFolder.open(directory: directory)
        let populated = try await populate(folder, seed: seed)

        try await PostgresTestDatabase.with { location in
            let target = try await PostgresBackend.open(location)
            let report = try await StoreMigration.copy(from: folder, to: target)
            #expect(report.books == (try await folder.catalog.allBooks().count))
            try await expectSameCatalog(folder.catalog, target.catalog)
            // A deleted principal's identifier stays retired on the copy: nothing new is ever given it.
            let retired = try await target.database.read { connection in
                try await connection.rows("SELECT id FROM retired_identifier", logger: target.database.logger)
                    .decode(String.self).array()
            }
            #expect(retired.contains(populated.retiredPrincipal))
            for book in try await folder.catalog.allBooks() {
                let source = try await folder.books.acquire(book)
                let copy = try await target.books.acquire(book)
                try await expectSameBook(source, copy, tokens: populated.tokens[book.id] ?? [], seed: seed)
                for stale in populated.staleCopies[book.id] ?? [] { try await expectSameMerge(source, copy, stale) }
                let postgres = try #require(copy as? PostgresStore)
                #expect(try await NamePrefixCountTests.mismatches(postgres) == [], "prefix counts, seed \(seed)")
                let deleted = populated.deleted[book.id] ?? []
                #expect(!deleted.isEmpty)
                #expect(
                    try await copy.unavailableIdentifiers(deleted) == source.unavailableIdentifiers(deleted),
                    "retired identifiers, seed \(seed)")
                await folder.books.release(book.id)
            }
            // A copy goes into a new database only: a second one is refused and writes nothing.
            let before = try await target.catalog.principals()
            await #expect(throws: StoreError.self) { try await StoreMigration.copy(from: folder, to: target) }
            #expect(try await target.catalog.principals() == before)
            try await target.close()
        }
        try await folder.close()
    }

    /// Two principals, a shared book, tokens (one revoked, one scoped), a deleted principal's retired identifier,
    /// and a random history in each book.
    private func populate(_ folder: DataFolder, seed: UInt64) async throws -> Populated {
        let catalog = folder.catalog
        let admin = try await folder.admin()
        let anna = try await catalog.createPrincipal(name: "anna")
        let gone = try await catalog.createPrincipal(name: "gone", kind: .service)
        _ = try await catalog.deletePrincipal(id: gone.id)
        let team = try await catalog.createBook(name: "Team", ownerID: anna.id)
        try await catalog.share(bookID: team.id, with: admin.id, access: .readWrite, by: anna.id)
        try await catalog.setDisabled(true, principal: anna.id)
        for (index, principal) in [admin, anna].enumerated() {
            try await catalog.insertAccessToken(
                AccessTokenRecord(
                    id: "tok\(index)", name: "t\(index)", secretHash: Array(repeating: UInt8(index), count: 32),
                    scopes: ["read", "write"], authors: ["app-a"], principalID: principal.id,
                    bookIDs: index == 1 ? [team.id] : nil))
        }
        try await catalog.revokeAccessToken(id: "tok0")
        var tokens: [String: [String]] = [:]
        var stale: [String: [Contact]] = [:]
        var deleted: [String: [String]] = [:]
        for (index, book) in try await catalog.allBooks().enumerated() {
            var workload = MigrationWorkload(seed: seed &+ UInt64(index))
            let store = try await folder.books.acquire(book)
            try await workload.run(store, steps: 150 + 50 * index, compact: index == 0)
            // Linked contacts: a pair and a trio, whose unified contacts the copy keeps with their identifiers.
            let some = try await store.contacts(ContactFetchRequest(keysToFetch: [], page: .first(5))).contacts
            if some.count == 5 {
                var link = SaveRequest(transactionAuthor: "linker")
                link.link(contactsWithIdentifiers: [some[0].identifier, some[1].identifier])
                link.link(contactsWithIdentifiers: some[2...].map(\.identifier))
                link.setPreferredForName(contactWithIdentifier: some[4].identifier)
                try await store.execute(link)
            }
            await folder.books.release(book.id)
            tokens[book.id] = workload.tokens
            stale[book.id] = workload.staleCopies
            deleted[book.id] = workload.deleted
        }
        return Populated(tokens: tokens, staleCopies: stale, deleted: deleted, retiredPrincipal: gone.id)
    }

    struct Populated {
        /// History tokens clients took along the way, per book.
        var tokens: [String: [String]]
        var staleCopies: [String: [Contact]]
        /// Contacts deleted, whose identifiers are retired.
        var deleted: [String: [String]]
        var retiredPrincipal: String
    }

    private func expectSameCatalog(_ source: any CatalogStore, _ copy: any CatalogStore) async throws {
        #expect(try await copy.principals() == source.principals())
        let books = try await source.allBooks()
        #expect(try await copy.allBooks().map(\.summary) == books.map(\.summary))
        #expect(try await copy.accessTokens() == source.accessTokens())
        for book in books {
            let grants = try await source.grants(bookID: book.id, by: book.ownerID).map {
                "\($0.principal.id) \($0.access)"
            }
            let copied = try await copy.grants(bookID: book.id, by: book.ownerID).map {
                "\($0.principal.id) \($0.access)"
            }
            #expect(copied == grants)
        }
    }

    private func expectSameBook(_ source: any ContactStore, _ copy: any ContactStore, tokens: [String], seed: UInt64)
        async throws
    {
        #expect(try await copy.containers() == source.containers(), "seed \(seed)")
        #expect(try await copy.groups() == source.groups(), "seed \(seed)")
        let sourceContacts = try await allContacts(source)
        #expect(try await allContacts(copy) == sourceContacts, "seed \(seed)")
        let ids = sourceContacts.map(\.identifier)
        #expect(try await copy.linkGroups(containing: ids) == source.linkGroups(containing: ids), "seed \(seed)")
        #expect(try await allContacts(copy, unify: true) == allContacts(source, unify: true), "seed \(seed)")
        let groups = try await source.groups().map(\.identifier)
        let sourceMembers = try await source.members(ofGroups: groups, keysToFetch: [], sortOrder: .givenName)
            .mapValues { $0.map(\.identifier) }
        let copyMembers = try await copy.members(ofGroups: groups, keysToFetch: [], sortOrder: .givenName)
            .mapValues { $0.map(\.identifier) }
        #expect(copyMembers == sourceMembers, "seed \(seed)")
        #expect(try await copy.userDefaultSortOrder() == source.userDefaultSortOrder())
        #expect(try await copy.currentHistoryToken() == source.currentHistoryToken())
        #expect(try await copy.oldestValidHistoryToken() == source.oldestValidHistoryToken())
        #expect(try await copy.contactCount() == sourceContacts.count)
        for token in [nil] + tokens {
            for includeGroups in [false, true] {
                let request = ChangeHistoryFetchRequest(
                    startingToken: token, includeGroupChanges: includeGroups, excludedAuthors: ["importer"],
                    contactKeys: .all, limit: 7)
                #expect(try await feed(copy, request) == feed(source, request), "seed \(seed), token \(token ?? "nil")")
            }
        }
        for name in MigrationWorkload.names + ["an", "ørs", "zo"] {
            // Unified too: a unified contact found through a member that does not stand for it comes from that
            // member's rows, which the copy writes at its end.
            for unify in [false, true] {
                var request = ContactFetchRequest(
                    predicate: .matchingName(name), keysToFetch: [], sortOrder: .familyName, page: .first(1000))
                request.unifyResults = unify
                #expect(
                    try await copy.contacts(request).contacts.map(\.identifier)
                        == source.contacts(request).contacts.map(\.identifier),
                    "name \(name), unify \(unify), seed \(seed)")
            }
        }
        for predicate in [
            ContactPredicate.matchingEmailAddress("person7.0@example.org"), .matchingPhoneNumber("0612345610"),
        ] {
            let request = ContactFetchRequest(predicate: predicate, keysToFetch: [], sortOrder: .givenName)
            #expect(
                try await copy.contacts(request).contacts.map(\.identifier)
                    == source.contacts(request).contacts.map(\.identifier), "seed \(seed)")
        }
    }

    /// The same save from a stale base (a client's old copy, edited) merges the same way on the copy: revisions,
    /// value versions and retired value identifiers came along.
    private func expectSameMerge(_ source: any ContactStore, _ copy: any ContactStore, _ stale: Contact) async throws {
        var contact = stale
        contact.familyName = "Merged"
        if !contact.emailAddresses.isEmpty { contact.emailAddresses[0].value = "merged@example.org" }
        var request = SaveRequest(transactionAuthor: "after-copy")
        request.update(contact, baseRevision: stale.revision)
        let sourceResult = await Self.result { try await source.execute(request) }
        let copyResult = await Self.result { try await copy.execute(request) }
        switch (sourceResult, copyResult) {
        case (.success, .success):
            let keys: ContactKeySet = [
                .familyName, .givenName, .phoneNumbers, .emailAddresses, .urlAddresses, .birthday,
            ]
            let merged = try await source.contact(withIdentifier: stale.identifier, keysToFetch: keys)
            let copied = try await copy.contact(withIdentifier: stale.identifier, keysToFetch: keys)
            #expect(copied.revision == merged.revision)
            #expect(copied.phoneNumbers == merged.phoneNumbers && copied.emailAddresses == merged.emailAddresses)
            #expect(copied.familyName == merged.familyName && copied.urlAddresses == merged.urlAddresses)
            #expect(copied.givenName == merged.givenName && copied.birthday == merged.birthday)
        case (.failure(let sourceError as StoreError), .failure(let copyError as StoreError)):
            #expect(copyError.code == sourceError.code)
            #expect(copyError.affectedRecordIdentifiers == sourceError.affectedRecordIdentifiers)
        default:
            Issue.record("The merge went differently: \(sourceResult) against \(copyResult)")
        }
    }

    private static func result<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    private func allContacts(_ store: any ContactStore, unify: Bool = false) async throws -> [Contact] {
        var contacts: [Contact] = []
        var after: String?
        while true {
            var request = ContactFetchRequest(keysToFetch: .all, sortOrder: .givenName, page: .first(200, after: after))
            request.unifyResults = unify
            let page = try await store.contacts(request)
            contacts += page.contacts
            guard page.hasNextPage, let cursor = page.cursors.last else { return contacts }
            after = cursor
        }
    }

    /// A sync loop from a token to the end, as a client runs it.
    private func feed(_ store: any ContactStore, _ start: ChangeHistoryFetchRequest) async throws -> [FeedEntry] {
        var request = start
        var entries: [FeedEntry] = []
        while true {
            let page = try await store.changeHistory(request)
            entries += page.events.map { event in
                FeedEntry(
                    summary: [
                        "\(event.kind)", event.contactIdentifier ?? "-", event.groupIdentifier ?? "-",
                        event.containerIdentifier ?? "-", event.changedKeys.map(\.rawValue).joined(separator: ","),
                        event.author ?? "-", event.dropReason?.rawValue ?? "-",
                    ].joined(separator: " "), contact: event.contact, group: event.group)
            }
            entries.append(FeedEntry(summary: "token \(page.token) more \(page.hasMore)", contact: nil, group: nil))
            guard page.hasMore else { return entries }
            request.startingToken = page.token
        }
    }

    struct FeedEntry: Equatable {
        var summary: String
        var contact: Contact?
        var group: Group?
    }
}

extension AddressBook {
    /// What both backends keep of a book (the file name is the data folder's alone).
    fileprivate var summary: String { "\(id) \(name) \(ownerID) \(created.timeIntervalSince1970)" }
}
