import CarnetStore
import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import Testing

@testable import CarnetStore
@testable import CarnetStorePostgres

@Suite("PostgreSQL durability", .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
struct KilledWriterTests {
    @Test("An instance killed (SIGKILL) in the middle of a stream of saves loses no acknowledged save")
    func killedWriter() async throws {
        try await PostgresTestDatabase.with { location in
            let book = UUID().uuidString
            var acknowledged: [String] = []
            for round in 0..<3 {
                let child = try ChildProcess(
                    try ChildProcess.executable("carnet-test-writer"),
                    ["--database", location.testURL, "--book", book])
                let started = try await ChildProcess.wait(seconds: 120) { child.outputLines.count >= 40 + round * 25 }
                #expect(started, "the writer did not get going")
                try await child.kill()
                #expect(child.process.terminationReason == .uncaughtSignal)
                acknowledged += child.outputLines
            }
            let backend = try await PostgresBackend.open(location)
            let store = try await backend.postgresBooks.store(
                AddressBook(id: book, name: "Writer", ownerID: "tests"))
            let found = try await store.contacts(withIdentifiers: acknowledged, keysToFetch: [.familyName])
            #expect(found.count == acknowledged.count)
            // Every saved contact has its event: they were in the same transaction.
            var added = Set<String>()
            // From the start of the log, incrementally: the events themselves, not a full sync's enumeration.
            var token = HistoryToken(storeID: store.storeID, position: 0).encoded
            while true {
                let page = try await store.changeHistory(ChangeHistoryFetchRequest(startingToken: token, limit: 10_000))
                #expect(!page.events.contains { $0.kind == .dropEverything })
                added.formUnion(page.events.filter { $0.kind == .addContact }.compactMap(\.contactIdentifier))
                token = page.token
                if !page.hasMore { break }
            }
            #expect(added.count == (try await store.contactCount()))
            try await backend.close()
        }
    }
}

@Suite("PostgreSQL busy books", .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
struct BusyBookTests {
    @Test("A save that waits for its book past the busy timeout fails with UNAVAILABLE and writes nothing")
    func lockTimeout() async throws {
        try await PostgresTestDatabase.with { location in
            var configuration = StoreConfiguration()
            configuration.busyTimeout = 0.2
            let backend = try await PostgresBackend.open(location, configuration: configuration)
            let book = AddressBook(id: UUID().uuidString, name: "Busy", ownerID: "tests")
            let store = try await backend.postgresBooks.store(book)
            let (locked, release) = AsyncStream<Void>.makeStream()
            let (done, finish) = AsyncStream<Void>.makeStream()
            // Another instance's save, holding the book's row until told to finish.
            let holder = Task {
                _ = try await backend.database.write { connection in
                    _ = try await connection.rows(
                        "SELECT 1 FROM book_store WHERE book_id = \(book.id) FOR UPDATE",
                        logger: backend.database.logger
                    ).collect()
                    release.yield()
                    for await _ in done { break }
                }
            }
            for await _ in locked { break }
            var request = SaveRequest(transactionAuthor: "waiting")
            request.add(Contact())
            await #expect {
                try await store.execute(request)
            } throws: { error in
                (error as? StoreError)?.code == .unavailable && (error as? StoreError)?.retryAfter != nil
            }
            finish.yield()
            try await holder.value
            #expect(try await store.contactCount() == 0)
            try await backend.close()
        }
    }
}
