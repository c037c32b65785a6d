import CarnetGraphQL
import CarnetStore
import CarnetStoreSQLite
import Foundation

/// The data the store and GraphQL benchmarks share: 10,000 generated contacts in a SQLite file, made once per
/// run of the benchmark executable.
final class Fixture: Sendable {
    static let listKeys: ContactKeySet = [.givenName, .familyName, .organizationName, .emailAddresses, .phoneNumbers]
    static let prefixes = ["ann", "mü", "jose", "smi", "chen", "o'b", "zo", "gar", "lars", "nova"]
    static let given = [
        "José", "Anna", "Zoë", "Łukasz", "Mei", "Olivia", "Noah", "Amélie", "Björn", "Chiara", "Dmitri",
    ]
    static let family = [
        "Núñez", "Smith", "Ångström", "Kowalski", "Chen", "Müller", "García", "O'Brien", "Larsen", "Novak",
    ]

    let store: SQLiteStore
    let service: GraphQLService
    let identifiers: [String]
    /// The token before the first contact was added: its page is a page of add events.
    let firstToken: String

    private init(store: SQLiteStore, identifiers: [String], firstToken: String) {
        self.store = store
        self.service = GraphQLService(store: store)
        self.identifiers = identifiers
        self.firstToken = firstToken
    }

    private static let made = Task { try await make(contacts: 10_000) }

    /// The fixture, made on first use.
    static func shared() async throws -> Fixture { try await made.value }

    private static func make(contacts: Int) async throws -> Fixture {
        let store = try emptyStore(named: "fixture")
        let firstToken = try await store.currentHistoryToken()
        var identifiers: [String] = []
        for start in stride(from: 0, to: contacts, by: 1_000) {
            var request = SaveRequest(transactionAuthor: "seed")
            for index in start..<min(start + 1_000, contacts) {
                let contact = person(index)
                identifiers.append(contact.identifier)
                request.add(contact)
            }
            try await store.execute(request)
        }
        return Fixture(store: store, identifiers: identifiers, firstToken: firstToken)
    }

    /// A person with names in several scripts, two emails and a phone.
    static func person(_ index: Int) -> Contact {
        var contact = Contact()
        contact.givenName = given[index % given.count]
        contact.familyName = family[(index / given.count) % family.count]
        contact.organizationName = index % 4 == 0 ? "Acme \(index % 50)" : ""
        contact.emailAddresses = [
            LabeledValue(label: ContactLabel.home, value: "person\(index)@example.com"),
            LabeledValue(label: ContactLabel.work, value: "p\(index)@work.example.org"),
        ]
        contact.phoneNumbers = [
            LabeledValue(label: ContactLabel.phoneMobile, value: "+1 555 \(100 + index % 900) \(1000 + index % 9000)")
        ]
        return contact
    }

    /// A new store in a fresh file under the temporary folder.
    static func emptyStore(named name: String) throws -> SQLiteStore {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-benchmarks-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("\(name).sqlite").path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        return try SQLiteStore.open(path: path)
    }
}
