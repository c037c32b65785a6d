import CarnetStoreTestSupport
import Foundation
import GRDB
import Synchronization
import Testing

@testable import CarnetStore
@testable import CarnetStoreSQLite

@Suite("Point readers")
struct PointReaderTests {
    @Test("A read by id sees another connection's commit at once, and a deletion")
    func seesOtherConnectionsCommits() async throws {
        let fixture = try await StoreFixture(.onDiskWAL)
        let contact = Make.person("Ada", "Lovelace", emails: ["ada@example.com"])
        _ = try await fixture.sqliteStore.add([contact], author: "first")
        let keys: ContactKeySet = [.givenName, .emailAddresses]
        #expect(
            try await fixture.sqliteStore.contact(withIdentifier: contact.identifier, keysToFetch: keys).givenName
                == "Ada")

        // A second store on the same file: the way another process (the CLI) writes while the server runs.
        let other = try SQLiteStore.open(path: try #require(fixture.databasePath))
        var edited = try await other.contact(withIdentifier: contact.identifier, keysToFetch: keys)
        edited.givenName = "Augusta"
        edited.emailAddresses.append(LabeledValue(label: ContactLabel.work, value: "augusta@example.com"))
        var request = SaveRequest(transactionAuthor: "second")
        request.update(edited)
        _ = try await other.execute(request)

        let seen = try await fixture.sqliteStore.contact(withIdentifier: contact.identifier, keysToFetch: keys)
        #expect(seen.givenName == "Augusta")
        #expect(seen.emailAddresses.map(\.value) == ["ada@example.com", "augusta@example.com"])

        var delete = SaveRequest(transactionAuthor: "second")
        delete.delete(contactWithIdentifier: edited.identifier)
        _ = try await other.execute(delete)
        #expect(
            try await fixture.sqliteStore.contacts(withIdentifiers: [contact.identifier], keysToFetch: keys).isEmpty)
        try await other.close()
    }

    @Test(
        "A contact by id holds only the kinds of values asked for, not those between them",
        arguments: StoreKind.sqlite)
    func onlyRequestedKinds(kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        var contact = Make.person(
            "Ada", "Lovelace", emails: ["ada@example.com"], phones: ["+44 20 7946 0001", "+44 20 7946 0002"])
        contact.postalAddresses = [
            LabeledValue(label: ContactLabel.home, value: PostalAddress(street: "12 St James's Square", city: "London"))
        ]
        contact.urlAddresses = [LabeledValue(label: ContactLabel.urlHomePage, value: "https://example.com/ada")]
        _ = try await fixture.sqliteStore.add([contact], author: "test")
        // Phones are kind 1, addresses 3: emails (2) lie between them in the index.
        let fetched = try await fixture.sqliteStore.contact(
            withIdentifier: contact.identifier, keysToFetch: [.phoneNumbers, .postalAddresses])
        #expect(fetched.phoneNumbers.map(\.value) == ["+44 20 7946 0001", "+44 20 7946 0002"])
        #expect(fetched.postalAddresses.map(\.value.street) == ["12 St James's Square"])
        #expect(fetched.values.emailAddresses.isEmpty && fetched.values.urlAddresses.isEmpty)
        #expect(!fetched.isKeyAvailable(.emailAddresses))
    }

    @Test("When every connection is busy, the read goes to the fallback; the connection is free again after")
    func fallsBackWhenBusy() async throws {
        let fixture = try await StoreFixture(.onDiskWAL)
        let readers = try PointReaders(
            path: try #require(fixture.databasePath), count: 1, configuration: Configuration(),
            memoryMap: MemoryMapPolicy(StoreConfiguration()), direct: true)
        let fallbacks = Mutex(0)
        func read() throws -> Int {
            try readers.read(
                { db in try Int.fetchOne(db, sql: "SELECT 1")! },
                otherwise: {
                    fallbacks.withLock { $0 += 1 }
                    return 2
                })
        }
        let nested = try readers.read({ _ in try read() }, otherwise: { -1 })
        #expect(nested == 2)
        #expect(fallbacks.withLock { $0 } == 1)
        #expect(try read() == 1)
        #expect(fallbacks.withLock { $0 } == 1)
        try readers.close()
    }

    @Test("Point readers refuse writes")
    func readOnly() async throws {
        let fixture = try await StoreFixture(.onDiskWAL)
        let readers = try PointReaders(
            path: try #require(fixture.databasePath), count: 1, configuration: Configuration(),
            memoryMap: MemoryMapPolicy(StoreConfiguration()), direct: true)
        #expect(throws: DatabaseError.self) {
            try readers.read({ db in try db.execute(sql: "DELETE FROM contact") }, otherwise: {})
        }
        try readers.close()
    }
}
