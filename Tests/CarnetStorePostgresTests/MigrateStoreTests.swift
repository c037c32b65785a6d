import CarnetStore
import CarnetStoreSQLite
import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import Logging
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

    /// An outside tester's find: a copy that failed on its second book (or was killed) left the catalog and the
    /// first book, a server started on it and answered the old tokens with the other book empty (its history
    /// tokens then drop everything), and another run was refused as the target was not new.
    @Test("A copy that stops before its end: servers refuse the target, and another run copies it whole")
    func unfinishedCopy() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-migrate-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var folder = try await DataFolder.open(directory: directory)
        let admin = try await folder.admin()
        let defaultBook = try #require(admin.defaultBookID)
        let books = [
            try #require(try await folder.catalog.book(id: defaultBook)),
            try await folder.catalog.createBook(name: "Second", ownerID: admin.id),
        ]
        for book in books {
            try await folder.bookStores.withStore(book) { store in
                var save = SaveRequest(transactionAuthor: "setup")
                for index in 0..<5 { save.add(Make.person("Name\(index)", book.name)) }
                try await store.execute(save)
            }
        }
        try await folder.close()
        // The second book's file lost: the copy fails there, after the catalog and the first book.
        let file = folder.bookStores.path(of: books[1])
        try FileManager.default.moveItem(atPath: file, toPath: file + ".away")

        try await PostgresTestDatabase.with { location in
            folder = try await DataFolder.open(directory: directory)
            let target = try await PostgresBackend.open(location, allowingUnfinishedMigration: true)
            await #expect(throws: StoreError.self) { try await StoreMigration.copy(from: folder, to: target) }
            try await target.close()
            try await folder.close()
            do {
                let served = try await PostgresBackend.open(location)
                try? await served.close()
                Issue.record("A server opened a database whose copy did not finish")
            } catch let error as StoreError {
                #expect(error.code == .storageFailure)
            }

            try FileManager.default.moveItem(atPath: file + ".away", toPath: file)
            folder = try await DataFolder.open(directory: directory)
            let again = try await PostgresBackend.open(location, allowingUnfinishedMigration: true)
            let report = try await StoreMigration.copy(from: folder, to: again)
            #expect(report.books == 2)
            try await again.close()
            let served = try await PostgresBackend.open(location)
            for book in books {
                let copied = try await served.books.withStore(book) { try await $0.contactCount() }
                let source = try await folder.books.withStore(book) { try await $0.contactCount() }
                #expect(copied == 5 && source == 5, "\(book.name)")
                let copiedToken = try await served.books.withStore(book) { try await $0.currentHistoryToken() }
                let sourceToken = try await folder.books.withStore(book) { try await $0.currentHistoryToken() }
                #expect(copiedToken == sourceToken, "\(book.name)")
            }
            try await served.close()
            try await folder.close()
        }
    }

    /// Outside testers' finds: a token revoked on the folder while the copy ran was active again on the copy, which
    /// finished; a target holding a token its operator made was copied into, and the token dropped.
    @Test("A catalog changed during the copy fails it; a target with an operator's token is refused")
    func catalogDuringCopy() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-migrate-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let folder = try await DataFolder.open(directory: directory)
        let admin = try await folder.admin()
        _ = try await folder.catalog.createBook(name: "Second", ownerID: admin.id)
        let token = AccessTokenRecord(
            id: "phone", name: "phone", secretHash: Array(repeating: 9, count: 32), scopes: ["read"], authors: [],
            principalID: admin.id)
        try await folder.catalog.insertAccessToken(token)
        try await PostgresTestDatabase.with { location in
            let target = try await PostgresBackend.open(location, allowingUnfinishedMigration: true)
            let catalog = folder.catalog
            do {
                // Revoked on the folder once the first book is copied.
                _ = try await StoreMigration.copy(from: folder, to: target) { _, _ in
                    _ = try? await catalog.revokeAccessToken(id: "phone")
                }
                Issue.record("A copy finished though the catalog changed meanwhile")
            } catch let error as StoreError {
                #expect(error.code == .storageFailure)
            }
            await #expect(throws: StoreError.self) { try await PostgresBackend.open(location).close() }
            // Run again, with the folder still: the copy is whole, the token revoked on it.
            _ = try await StoreMigration.copy(from: folder, to: target)
            let copied = try await target.catalog.accessToken(id: "phone")
            #expect(copied?.token.revoked != nil)
            try await target.close()
        }
        try await PostgresTestDatabase.with { location in
            let target = try await PostgresBackend.open(location)
            let adminID = try await target.admin().id
            // A first start's token is replaced; an operator's is not dropped: the copy is refused.
            try await target.catalog.insertAccessToken(
                AccessTokenRecord(
                    id: "first", name: "admin", secretHash: Array(repeating: 1, count: 32), scopes: ["read", "write"],
                    authors: [], principalID: adminID))
            #expect(try await target.isEmptyForMigration())
            try await target.catalog.insertAccessToken(
                AccessTokenRecord(
                    id: "operator", name: "operator", secretHash: Array(repeating: 2, count: 32), scopes: ["read"],
                    authors: [], principalID: adminID))
            await #expect(throws: StoreError.self) { try await StoreMigration.copy(from: folder, to: target) }
            #expect(try await target.catalog.accessToken(id: "operator") != nil)
            try await target.close()
        }
        try await folder.close()
    }

    /// An outside tester's find: a database that does not exist was "did not answer within the connect timeout",
    /// and a user the database denied tables was "PSQLError – Generic description".
    @Test("A database that does not exist, or a user without privileges, is named at once")
    func missingDatabase() async throws {
        try await PostgresTestDatabase.with { location in
            let role = "carnet_weak_\(UUID().uuidString.prefix(8).lowercased())"
            let admin = try await PostgresDatabase.connect(location, logger: Logger(label: "test"))
            try await admin.read { try await $0.rows("CREATE ROLE \(unescaped: role) LOGIN", logger: admin.logger) }
            var weak = location
            weak.username = role
            do {
                let backend = try await PostgresBackend.open(weak)
                try? await backend.close()
                Issue.record("A user without privileges migrated the database")
            } catch let error as StoreError {
                #expect(error.code == .storageFailure)
                #expect(error.message.contains("SQLSTATE 42501"))
            }
            try await admin.read { try await $0.rows("DROP ROLE \(unescaped: role)", logger: admin.logger) }
            await admin.close()
            var missing = location
            missing.database = "carnet_missing_\(UUID().uuidString.prefix(8).lowercased())"
            do {
                let backend = try await PostgresBackend.open(missing)
                try? await backend.close()
                Issue.record("A database that does not exist opened")
            } catch let error as StoreError {
                #expect(error.code == .storageFailure)
                #expect(error.message.contains(missing.database))
            }
        }
        let location = try PostgresLocation(url: "postgres://bob@h/db")
        #expect(PostgresLoginProbe.refusal("28P01", location)?.code == .storageFailure)
        #expect(PostgresLoginProbe.refusal("57P03", location) == nil)
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
