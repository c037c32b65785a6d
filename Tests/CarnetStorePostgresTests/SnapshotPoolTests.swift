import CarnetStore
import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStorePostgres

@Suite(
    "PostgreSQL snapshot connections",
    .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
struct SnapshotPoolTests {
    /// A query reading in one snapshot holds a connection and may need another: a book it reads for the first time
    /// writes its rows (then read by the same query, which must find its default container). Taken from one pool, as many such queries as connections waited on each other for ever (a
    /// loaded test run, sharing one pool of 8, hung so). The limit is a bound on that hang: it passes in a second
    /// alone, and a loaded run takes two minutes to make and migrate its database.
    @Test("Queries that open books inside their snapshots do not run the pool dry", .timeLimit(.minutes(10)))
    func openBooksInsideSnapshots() async throws {
        try await PostgresTestDatabase.with { location in
            var location = location
            // One connection for the commit listener, one for the rest; one for snapshots.
            location.poolSize = 2
            let backend = try await PostgresBackend.open(location)
            let books = backend.postgresBooks
            let first = try await books.store(AddressBook(id: UUID().uuidString, name: "First", ownerID: "tests"))
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<6 {
                    group.addTask {
                        try await first.withConsistentReads {
                            _ = try await first.contactCount()
                            let book = AddressBook(id: UUID().uuidString, name: "Book \(index)", ownerID: "tests")
                            let other = try await books.store(book)
                            // Its rows were written after the snapshot began: the rest of the query sees them.
                            _ = try await other.defaultContainer()
                            return try await other.contactCount()
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            try await backend.close()
            #expect(counts == Array(repeating: 0, count: 6))
        }
    }
}
