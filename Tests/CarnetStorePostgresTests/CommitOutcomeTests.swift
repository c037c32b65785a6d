import CarnetStore
import CarnetStoreTestSupport
import Foundation
import Logging
import Testing

@testable import CarnetStorePostgres

/// A COMMIT sent and its answer lost with the connection: the save looks the transaction up (`txid_status`) and
/// answers as it ended, where it said "may have been written" whatever happened.
@Suite(
    "PostgreSQL commits whose answer is lost",
    .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
struct CommitOutcomeTests {
    static func person(_ identifier: String) -> SaveRequest {
        var contact = Contact(identifier: identifier)
        contact.givenName = "Lost"
        var request = SaveRequest(transactionAuthor: "t")
        request.add(contact)
        return request
    }

    @Test("Made after all: the save succeeds; rolled back: UNAVAILABLE saying nothing was written, and nothing is")
    func lostAnswers() async throws {
        try await PostgresTestDatabase.with { location in
            let backend = try await PostgresBackend.open(location)
            let store = try await backend.postgresBooks.store(AddressBook(id: "commit", name: "Commit", ownerID: "t"))
            let made = try await CommitOutcome.$fault.withValue(.answerLostAfterCommit) {
                try await store.execute(Self.person("made"))
            }
            #expect(!made.historyToken.isEmpty)
            #expect(try await store.contacts(withIdentifiers: ["made"], keysToFetch: []).count == 1)
            // A FATAL error after the commit was answered as an unreachable database, "nothing was written".
            let ended = try await CommitOutcome.$fault.withValue(.serverEndedAfterCommit) {
                try await store.execute(Self.person("made-then-ended"))
            }
            #expect(!ended.historyToken.isEmpty)
            // Read at once, while the pool may still lend the ended connection: the read runs again on another.
            #expect(try await store.contacts(withIdentifiers: ["made-then-ended"], keysToFetch: []).count == 1)

            let refused = await #expect(throws: StoreError.self) {
                try await CommitOutcome.$fault.withValue(.answerLostAfterRollback) {
                    try await store.execute(Self.person("rolled-back"))
                }
            }
            #expect(refused?.code == .unavailable)
            #expect(refused?.message.contains("nothing was written") == true, "\(String(describing: refused))")
            #expect(try await store.contacts(withIdentifiers: ["rolled-back"], keysToFetch: []).isEmpty)
            // The connections are as good as before.
            try await store.execute(Self.person("after"))
            try await backend.close()
        }
    }
}
