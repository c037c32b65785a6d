import CarnetStore
import CarnetStorePostgres
import CarnetStoreSQLite
import Foundation
import Synchronization
import Testing

/// The stores every behavioural store test runs against: each backend, and on SQLite both in memory and in a WAL
/// file. The conformance suite (`CarnetStoreTests`) takes ``available``; the SQLite backend's own tests ``sqlite``.
package enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inMemory
    case onDiskWAL
    case postgres

    package var testDescription: String { rawValue }

    package static let sqlite: [StoreKind] = [.inMemory, .onDiskWAL]

    /// Every kind this run can reach: PostgreSQL when a test database is configured or required
    /// (``PostgresTestDatabase``).
    package static var available: [StoreKind] {
        PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired ? allCases : sqlite
    }
}

/// A store plus what a test needs to inspect it; removes its files when done.
package final class StoreFixture: Sendable {
    /// The store under test, through the protocol the layers above use.
    package let store: any ContactStore
    /// The same store with its own type, for the SQLite backend's tests.
    package let sqlite: SQLiteStore?
    package let directory: URL?
    package let statements: StatementLog
    let kind: StoreKind
    private let configuration: StoreConfiguration

    /// - Parameter traced: log executed statements in ``statements`` (SQLite only). Off by default: a traced SQLite
    ///   store reads through GRDB only, and the tests should run the point readers' direct statements, as a server
    ///   does.
    package init(
        _ kind: StoreKind, traced: Bool = false, configure: (inout StoreConfiguration) -> Void = { _ in }
    ) async throws {
        let log = StatementLog()
        var configuration = StoreConfiguration()
        if traced { configuration.statementTrace = { log.append($0) } }
        configure(&configuration)
        self.statements = log
        self.kind = kind
        self.configuration = configuration
        switch kind {
        case .inMemory:
            directory = nil
            let sqlite = try SQLiteStore.inMemory(configuration: configuration)
            (self.sqlite, self.store) = (sqlite, sqlite)
        case .onDiskWAL:
            let directory = try makeTemporaryDirectory()
            self.directory = directory
            let sqlite = try SQLiteStore.open(
                path: directory.appendingPathComponent("carnet.sqlite").path, configuration: configuration)
            (self.sqlite, self.store) = (sqlite, sqlite)
        case .postgres:
            directory = nil
            sqlite = nil
            store = try await PostgresTestDatabase.newBook(configuration: configuration)
        }
    }

    /// The same store opened again, as after a restart, once ``store`` is closed; for kinds that persist.
    package func reopen() async throws -> any ContactStore {
        if kind == .postgres, let store = store as? PostgresStore {
            return try await PostgresTestDatabase.reopen(store, configuration: configuration)
        }
        let path = try #require(databasePath, "A store in memory does not persist.")
        return try SQLiteStore.open(path: path)
    }

    /// The SQLite file, for a store on disk.
    package var databasePath: String? { directory?.appendingPathComponent("carnet.sqlite").path }

    /// The SQLite store, or a failed requirement on another backend.
    package var sqliteStore: SQLiteStore {
        get throws { try #require(sqlite, "This check reads SQLite's own tables.") }
    }

    deinit {
        if let directory { FixtureDirectories.removeAtExit(directory) }
    }
}

/// On-disk fixtures' folders, removed when the test process exits. A fixture often ends as soon as it has handed
/// out its store (`try await StoreFixture(kind).store`); removing its files then took them from under the store,
/// which went on writing to unlinked files unnoticed, until saves to a file deleted by another process were
/// refused.
private enum FixtureDirectories {
    static let pending = Mutex<[URL]>([])
    static let registered: Void = {
        atexit {
            for directory in FixtureDirectories.pending.withLock({ $0 }) {
                try? FileManager.default.removeItem(at: directory)
            }
        }
    }()

    static func removeAtExit(_ directory: URL) {
        _ = registered
        pending.withLock { $0.append(directory) }
    }
}

/// A new, empty folder in the system's temporary directory; the caller removes it.
package func makeTemporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

/// Collects executed statements, for tests that prove what the store reads.
package final class StatementLog: Sendable {
    private let lines = Mutex<[String]>([])
    package init() {}
    package func append(_ line: String) { lines.withLock { $0.append(line) } }
    package func reset() { lines.withLock { $0 = [] } }
    package var all: [String] { lines.withLock { $0 } }
}

/// Builders for test data.
package enum Make {
    package static func person(
        _ given: String, _ family: String, emails: [String] = [], phones: [String] = [], organization: String = ""
    ) -> Contact {
        var contact = Contact()
        contact.givenName = given
        contact.familyName = family
        contact.organizationName = organization
        contact.emailAddresses = emails.map { LabeledValue(label: ContactLabel.home, value: $0) }
        contact.phoneNumbers = phones.map { LabeledValue(label: ContactLabel.phoneMobile, value: $0) }
        return contact
    }

    /// Six contacts for search tests: diacritics, an organization, shared family names, emails and phones.
    package static func searchSample() -> [Contact] {
        [
            person("José", "Núñez", emails: ["Jose.Nunez@Example.com"], phones: ["(555) 555-1234"]),
            person("Anna", "Smith", emails: ["anna@example.com"], phones: ["+44 20 7946 0958"]),
            person("Annabel", "Smithson"),
            person("Zoë", "Ångström"),
            person("", "", organization: "Acme Corp"),
            person("Bob", "Smith"),
        ]
    }

    /// The page's contacts as "given family", for comparing with expected names.
    package static func names(_ page: ContactPage) -> [String] {
        page.contacts.map { [$0.givenName, $0.familyName].filter { !$0.isEmpty }.joined(separator: " ") }
    }
}

extension ContactStore {
    /// Adds contacts in one save and returns them as given (their identifiers are the saved ones).
    @discardableResult
    package func add(_ contacts: [Contact], author: String? = nil, container: String? = nil) async throws
        -> SaveResult
    {
        var request = SaveRequest(transactionAuthor: author)
        for contact in contacts { request.add(contact, toContainerWithIdentifier: container) }
        return try await execute(request)
    }
}

/// The catalogs the catalog tests run against: each backend's.
package enum CatalogKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgres

    package var testDescription: String { rawValue }

    /// Every backend this run can reach: PostgreSQL when a test database is configured or required
    /// (``PostgresTestDatabase``), so that a run without one skips it and CI, which requires it, fails without one.
    package static var available: [CatalogKind] {
        PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired ? allCases : [.sqlite]
    }
}

/// A catalog of each backend, removed when done.
package enum CatalogFixture {
    /// Runs `body` with a new catalog of this kind, closed and removed afterwards.
    package static func with(
        _ kind: CatalogKind, configure: (inout StoreConfiguration) -> Void = { _ in },
        _ body: (any CatalogStore) async throws -> Void
    ) async throws {
        var configuration = StoreConfiguration()
        configure(&configuration)
        switch kind {
        case .sqlite:
            let folder = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let catalog = try SQLiteCatalog.open(
                path: folder.appendingPathComponent("catalog.sqlite").path, configuration: configuration)
            defer { try? catalog.close() }
            try await body(catalog)
        case .postgres:
            try await PostgresTestDatabase.with { location in
                let catalog = try await PostgresCatalog.open(location, configuration: configuration)
                do {
                    try await body(catalog)
                } catch {
                    try? await catalog.close()
                    throw error
                }
                try await catalog.close()
            }
        }
    }
}

/// The error a save fails with, or `nil` when it succeeds (a non-store error is recorded as an issue).
package func refusal(_ store: any ContactStore, _ request: SaveRequest) async -> StoreError? {
    do {
        try await store.execute(request)
        return nil
    } catch let error as StoreError {
        return error
    } catch {
        Issue.record("not a store error: \(error)")
        return nil
    }
}

/// Executes a save as a client that honours `UNAVAILABLE` does: a save that waited too long for a busy book wrote
/// nothing and is sent again, a bounded number of times. For tests of concurrency whose subject is not the wait.
@discardableResult
package func executeRetryingBusy(_ store: any ContactStore, _ request: SaveRequest) async throws -> SaveResult {
    var attempt = 0
    while true {
        do {
            return try await store.execute(request)
        } catch let error as StoreError where error.code == .unavailable && attempt < 20 {
            attempt += 1
        }
    }
}
