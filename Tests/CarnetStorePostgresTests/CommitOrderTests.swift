import CarnetStore
import CarnetStoreTestSupport
import Foundation
import Synchronization
import Testing

@testable import CarnetStorePostgres

/// PostgreSQL commits concurrent transactions in any order; a book's history must still never hand a reader a
/// token past an event that is not yet visible. Two instances (two pools) write one book from many tasks while
/// readers pull continuously: every saved contact's add event reaches every reader exactly once.
@Suite("PostgreSQL history order", .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
struct CommitOrderTests {
    /// Saves in all; `CARNET_PG_ORDER_SAVES` raises it (10,000 for the figure in the backend's README).
    static var saves: Int {
        ProcessInfo.processInfo.environment["CARNET_PG_ORDER_SAVES"].flatMap(Int.init) ?? 2_000
    }

    @Test("8 writers on 2 instances, readers pulling all along: no event skipped or repeated")
    func noSkipNoRepeat() async throws {
        try await PostgresTestDatabase.with { location in
            let instances = [try await PostgresBackend.open(location), try await PostgresBackend.open(location)]
            let book = AddressBook(id: UUID().uuidString, name: "Shared", ownerID: "tests")
            let stores = [
                try await instances[0].postgresBooks.store(book), try await instances[1].postgresBooks.store(book),
            ]
            // Tokens from before the first save, so every save's event is after them.
            let startTokens = [try await stores[0].currentHistoryToken(), try await stores[1].currentHistoryToken()]
            let writers = 8
            let perWriter = Self.saves / writers
            let done = FinishedWriters()
            let seen = try await withThrowingTaskGroup(of: [String]?.self) { group in
                for writer in 0..<writers {
                    group.addTask {
                        defer { done.finishOne() }
                        for index in 0..<perWriter {
                            var request = SaveRequest(transactionAuthor: "writer-\(writer)")
                            var contact = Contact()
                            contact.givenName = "W\(writer) \(index)"
                            request.add(contact)
                            // Eight writers on one book may outwait a loaded machine's lock timeout: that save
                            // wrote nothing and goes again, as a client honouring UNAVAILABLE does.
                            try await executeRetryingBusy(stores[writer % 2], request)
                        }
                        return nil
                    }
                }
                for reader in 0..<2 {
                    group.addTask {
                        var token = startTokens[reader]
                        var ids: [String] = []
                        while true {
                            let finished = done.count == writers
                            var page: ChangeHistoryPage
                            repeat {
                                page = try await stores[reader].changeHistory(
                                    ChangeHistoryFetchRequest(startingToken: token, contactKeys: [], limit: 100))
                                ids += page.events.compactMap { $0.kind == .addContact ? $0.contactIdentifier : nil }
                                #expect(!page.events.contains { $0.kind == .dropEverything })
                                token = page.token
                            } while page.hasMore
                            if finished { return ids }
                            // Pacing only: the next pull finds whatever committed meanwhile, however long that is.
                            if page.events.isEmpty { try await Task.sleep(for: .milliseconds(2)) }
                        }
                    }
                }
                var results: [[String]] = []
                for try await result in group { if let result { results.append(result) } }
                return results
            }
            let expected = writers * perWriter
            for ids in seen {
                #expect(ids.count == expected, "events seen: \(ids.count) of \(expected)")
                #expect(Set(ids).count == ids.count, "repeated events")
            }
            #expect(try await stores[0].contactCount() == expected)
            for instance in instances { try await instance.close() }
        }
    }
}

/// How many writers have finished, shared by the test's tasks.
final class FinishedWriters: Sendable {
    private let finished = Atomic<Int>(0)
    func finishOne() { finished.add(1, ordering: .sequentiallyConsistent) }
    var count: Int { finished.load(ordering: .sequentiallyConsistent) }
}
