import CarnetStore
import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStorePostgres

/// Deleting a book while saves run on it, on PostgreSQL: an outside client saw the deletion deadlock with saves
/// (it failed after the catalog had dropped the book, leaving its records), and a save after it could make the
/// book anew.
@Suite(
    "PostgreSQL: deleting a book under saves",
    .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
struct BookDeletionRaceTests {
    @Test("Each save lands before the deletion or is refused; no row of the book is left; it never opens again")
    func deleteUnderSaves() async throws {
        let backend = try await PostgresBackend.open(try await PostgresTestDatabase.sharedLocation())
        let admin = try await backend.admin()
        let book = try await backend.catalog.createBook(name: "Doomed", ownerID: admin.id)
        let store = try await backend.postgresBooks.store(book)
        try await store.add([Make.person("Anna", "Before")])
        let writers = (0..<4).map { writer in
            Task {
                var outcomes: [String] = []
                // Until the deletion refuses one: saves before, during and after it.
                var number = 0
                while outcomes.last != "RECORD_DOES_NOT_EXIST", number < 10_000 {
                    number += 1
                    do {
                        let group = Group(name: "G\(writer)-\(number)")
                        var request = SaveRequest(transactionAuthor: "writer")
                        request.add(Make.person("Writer \(writer)", "Save \(number)"))
                        request.add(group)
                        try await store.execute(request)
                        outcomes.append("saved")
                    } catch let error as StoreError {
                        outcomes.append(error.code.rawValue)
                    }
                }
                return outcomes
            }
        }
        // The deletion starts once the writers do; they go on past it.
        while try await store.contactCount() < 5 { await Task.yield() }
        // The catalog's deletion alone: the records go in its transaction, so no failure after it can leave them.
        let deleted = try await backend.catalog.deleteBook(id: book.id, by: admin.id)
        var outcomes: [String] = []
        for writer in writers { outcomes += try await writer.value }
        #expect(Set(outcomes).isSubset(of: ["saved", "RECORD_DOES_NOT_EXIST"]), "\(Set(outcomes))")
        #expect(outcomes.filter { $0 == "RECORD_DOES_NOT_EXIST" }.count == writers.count)
        let left = try await Self.rows(of: book.id, in: backend)
        #expect(left.isEmpty, "rows of the deleted book: \(left)")
        // A handle taken before (another instance's, which no deletion reaches) says the book is gone.
        let gone = await #expect(throws: StoreError.self) { _ = try await store.defaultContainer() }
        #expect(gone?.code == .recordDoesNotExist)
        try await backend.postgresBooks.delete(deleted)
        // Neither this instance nor another makes the book anew for a request that found it just before.
        let error = await #expect(throws: StoreError.self) { _ = try await backend.postgresBooks.store(book) }
        #expect(error?.code == .recordDoesNotExist)
        let other = PostgresBooks.open(backend, configuration: StoreConfiguration())
        await #expect(throws: StoreError.self) { _ = try await other.store(book) }
        try await backend.close()
    }

    @Test("Deleting a principal deletes its books' records in the same transaction")
    func deletePrincipalsBooks() async throws {
        let backend = try await PostgresBackend.open(try await PostgresTestDatabase.sharedLocation())
        let user = try await backend.catalog.createPrincipal(
            name: "leaving-\(UUID().uuidString)", kind: .user, isAdmin: false)
        let book = try await backend.catalog.createBook(name: "Theirs", ownerID: user.id)
        try await backend.postgresBooks.store(book).add([Make.person("Anna", "Theirs")])
        #expect(try await Self.rows(of: book.id, in: backend)["contact"] == 1)
        let deleted = try await backend.catalog.deletePrincipal(id: user.id)
        #expect(deleted.map(\.id).contains(book.id))
        let left = try await Self.rows(of: book.id, in: backend)
        #expect(left.isEmpty, "rows of the deleted principal's book: \(left)")
        try await backend.close()
    }

    /// The book's rows left in each table, by table.
    static func rows(of bookID: String, in backend: PostgresBackend) async throws -> [String: Int] {
        try await backend.database.read { connection in
            var left: [String: Int] = [:]
            for table in BookSchema.bookTables {
                let count =
                    try await connection.rows(
                        "SELECT count(*) FROM \(unescaped: table) WHERE book_id = \(bookID)",
                        logger: backend.database.logger
                    ).decode(Int.self).array().first ?? 0
                if count > 0 { left[table] = count }
            }
            return left
        }
    }
}
