import Foundation
import GRDB
import Synchronization
import Testing

@testable import CarnetStore

/// The two databases every store test runs against: in memory, and a WAL database in a temporary file.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inMemory
    case onDiskWAL

    var testDescription: String { rawValue }
}

/// A store plus what a test needs to inspect it; removes its files when done.
final class StoreFixture: Sendable {
    let store: CarnetStore
    let directory: URL?
    let statements: StatementLog

    /// - Parameter traced: log executed SQL in ``statements``. Off by default: a traced store reads through GRDB
    ///   only, and the tests should run the point readers' direct statements, as a server does.
    init(_ kind: StoreKind, traced: Bool = false, configure: (inout StoreConfiguration) -> Void = { _ in }) throws {
        let log = StatementLog()
        var configuration = StoreConfiguration()
        if traced { configuration.statementTrace = { log.append($0) } }
        configure(&configuration)
        self.statements = log
        switch kind {
        case .inMemory:
            directory = nil
            store = try CarnetStore.inMemory(configuration: configuration)
        case .onDiskWAL:
            let directory = try makeTemporaryDirectory()
            self.directory = directory
            store = try CarnetStore.open(
                path: directory.appendingPathComponent("carnet.sqlite").path,
                configuration: configuration)
        }
    }

    var databasePath: String? { directory?.appendingPathComponent("carnet.sqlite").path }

    deinit {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }
}

/// A new, empty folder in the system's temporary directory; the caller removes it.
func makeTemporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

/// Collects executed SQL, for tests that prove what the store reads.
final class StatementLog: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    func reset() { lines.withLock { $0 = [] } }
    var all: [String] { lines.withLock { $0 } }
}

/// Builders for test data.
enum Make {
    static func person(
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
}

extension CarnetStore {
    /// Adds contacts in one save and returns them as given (their identifiers are the saved ones).
    @discardableResult
    func add(_ contacts: [Contact], author: String? = nil, container: String? = nil) async throws -> SaveResult {
        var request = SaveRequest(transactionAuthor: author)
        for contact in contacts { request.add(contact, toContainerWithIdentifier: container) }
        return try await execute(request)
    }
}
