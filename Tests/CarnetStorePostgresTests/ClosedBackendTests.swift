import CarnetStore
import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStorePostgres

/// postgres-nio queues a lease on a pool that stopped running instead of failing it: a store used after its
/// backend closed must fail at once, not wait for ever.
@Suite(
    "PostgreSQL backend after close", .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired)
)
struct ClosedBackendTests {
    @Test("Reads and saves through a closed backend fail with UNAVAILABLE")
    func failsFast() async throws {
        try await PostgresTestDatabase.with { location in
            let backend = try await PostgresBackend.open(location)
            let book = AddressBook(id: UUID().uuidString, name: "Closed", ownerID: "tests")
            let store = try await backend.postgresBooks.store(book)
            try await store.add([Make.person("Ada", "Before")])
            try await backend.close()
            // A hang bound: the answer comes without touching the network.
            let outcome = try await withThrowingTaskGroup(of: StoreError?.self) { group in
                group.addTask {
                    do {
                        _ = try await store.contacts(ContactFetchRequest(keysToFetch: []))
                        return nil
                    } catch let error as StoreError {
                        do {
                            try await store.add([Make.person("Bea", "After")])
                        } catch let save as StoreError where save.code == .unavailable {
                            return error
                        }
                        return nil
                    }
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(120))
                    throw CancellationError()
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            #expect(outcome?.code == .unavailable)
        }
    }
}
