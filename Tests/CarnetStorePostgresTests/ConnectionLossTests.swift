import CarnetStore
import CarnetStoreTestSupport
import Foundation
import Logging
import PostgresNIO
import Synchronization
import Testing

@testable import CarnetStorePostgres

/// Connections cut by the server (a failover, `pg_terminate_backend`) while saves run: every save answers, committed
/// or UNAVAILABLE. postgres-nio lost a query written to a connection just closed, and its caller waited for ever:
/// saves hung holding their pool leases (an outside tester's find; ``ConnectionWatch``).
@Suite(
    "PostgreSQL connections lost", .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
struct ConnectionLossTests {
    /// The save's outcome, or `nil` when it did not answer within `seconds`; a save that never answers is left
    /// behind rather than awaited.
    static func answer(
        within seconds: Int, _ save: @escaping @Sendable () async throws -> Void
    ) async -> Result<Void, any Error>? {
        let outcome = Outcome()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            outcome.waiter.withLock { $0 = continuation }
            Task {
                let result: Result<Void, any Error>
                do { result = .success(try await save()) } catch { result = .failure(error) }
                outcome.finish(result)
            }
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                outcome.finish(nil)
            }
        }
        return outcome.result.withLock { $0 }
    }

    /// `body`'s result, tried again (up to five times) while it fails UNAVAILABLE.
    static func retrying<T>(_ body: () async throws -> T) async throws -> T {
        for _ in 0..<4 {
            do { return try await body() } catch let error as StoreError where error.code == .unavailable {
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        return try await body()
    }

    /// The first of a save's answer and its deadline.
    final class Outcome: Sendable {
        let waiter = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let result = Mutex<Result<Void, any Error>?>(nil)

        func finish(_ value: Result<Void, any Error>?) {
            guard let waiter = waiter.withLock({ $0.take() }) else { return }
            result.withLock { $0 = value }
            waiter.resume()
        }
    }

    final class Tally: Sendable {
        let done = Atomic<Bool>(false)
        let hung = Atomic<Int>(0)
        let refused = Mutex<[String]>([])
        /// The first contact of each save that answered, by what it answered: saved, or not written.
        let saved = Mutex<[String]>([])
        let notWritten = Mutex<[String]>([])
    }

    @Test("Saves while the server terminates the connections all answer, committed or UNAVAILABLE")
    func savesAnswer() async throws {
        try await PostgresTestDatabase.with { location in
            let backend = try await PostgresBackend.open(location)
            let store = try await backend.postgresBooks.store(AddressBook(id: "lost", name: "Lost", ownerID: "tests"))
            var server = location
            server.database = "postgres"
            let admin = try await PostgresDatabase.connect(server, logger: Logger(label: "carnet.tests.killer"))
            let tally = Tally()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<3 {
                    group.addTask {
                        var index = 0
                        while !tally.done.load(ordering: .relaxed) || index < 5 {
                            index += 1
                            var request = SaveRequest(transactionAuthor: "w")
                            for contact in 0..<5 {
                                var added = Contact(identifier: "w\(writer)-\(index)-\(contact)")
                                added.givenName = "K"
                                request.add(added)
                            }
                            request.add(Group(identifier: "w\(writer)-\(index)-g", name: "g"))
                            let pending = request
                            let first = "w\(writer)-\(index)-0"
                            switch await Self.answer(within: 60, { try await store.execute(pending) }) {
                            case nil: tally.hung.add(1, ordering: .relaxed)
                            case .failure(let error as StoreError) where error.code == .unavailable:
                                if error.message.contains("nothing was written") {
                                    tally.notWritten.withLock { $0.append(first) }
                                }
                            case .failure(let error): tally.refused.withLock { $0.append("\(error)") }
                            case .success: tally.saved.withLock { $0.append(first) }
                            }
                        }
                    }
                }
                group.addTask {
                    defer { tally.done.store(true, ordering: .relaxed) }
                    for round in 0..<12 {
                        try await Task.sleep(for: .milliseconds(200 + 150 * (round % 4)))
                        try await admin.read { connection in
                            try await connection.rows(
                                """
                                SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                                WHERE datname = \(location.database)
                                """, logger: Logger(label: "carnet.tests.killer"))
                        }
                    }
                }
                try await group.waitForAll()
            }
            await admin.close()
            #expect(tally.hung.load(ordering: .relaxed) == 0, "saves that never answered")
            #expect(tally.refused.withLock { $0 }.isEmpty, "\(tally.refused.withLock { $0 })")
            // Each answer told the truth: what was saved is there, what was not written is not.
            let saved = tally.saved.withLock { $0 }
            let notWritten = tally.notWritten.withLock { $0 }
            // (A pooled connection the last round cut may still be lent once: a read retries as a client would.)
            #expect(
                try await Self.retrying { try await store.contacts(withIdentifiers: saved, keysToFetch: []) }.count
                    == saved.count)
            #expect(
                try await Self.retrying { try await store.contacts(withIdentifiers: notWritten, keysToFetch: []) }
                    .isEmpty, "\(notWritten)")
            // The pool has recovered: a save after it commits.
            var after = Contact(identifier: "after")
            after.givenName = "A"
            var request = SaveRequest(transactionAuthor: "w")
            request.add(after)
            let pending = request
            _ = try await Self.retrying { try await store.execute(pending) }
            try await backend.close()
        }
    }
}
