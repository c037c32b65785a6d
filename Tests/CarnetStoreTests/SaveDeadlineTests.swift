import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// A save given a deadline (the GraphQL executor's time budget) stops before an operation that would start past it,
/// and writes nothing: thousands of costly operations once held a book's write lock for a minute (an outside
/// tester's find).
@Suite("Save deadlines")
struct SaveDeadlineTests {
    @Test("A save past its deadline fails before its next operation and writes nothing", arguments: StoreKind.available)
    func pastDeadline(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        let before = try await store.currentHistoryToken()
        var request = SaveRequest(transactionAuthor: "app")
        request.add(Make.person("Anna", "Smith"))
        request.add(Make.person("Ben", "Jones"))
        request.add(Group(name: "Friends"))
        request.deadline = .now - .seconds(1)
        do {
            try await store.execute(request)
            Issue.record("the save should fail")
        } catch let error as StoreError {
            #expect(error.code == .executionTimeExceeded)
            #expect(error.code.rawValue == "MAX_EXECUTION_TIME_EXCEEDED")
            #expect(error.operationIndex == 1)
        }
        #expect(try await store.contactCount() == 0)
        #expect(try await store.groupCount() == 0)
        #expect(try await store.currentHistoryToken() == before)

        // Atomic batches take the earliest deadline of their requests.
        var first = SaveRequest(transactionAuthor: "app")
        first.add(Make.person("Cleo", "Park"))
        var second = first
        second.deadline = .now - .seconds(1)
        await #expect(throws: StoreError.self) { try await store.execute(atomically: [first, second]) }
        #expect(try await store.contactCount() == 0)
    }

    @Test("One operation always runs, and a deadline ahead changes nothing", arguments: StoreKind.available)
    func withinDeadline(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        var one = SaveRequest(transactionAuthor: "app")
        one.add(Make.person("Anna", "Smith"))
        one.deadline = .now - .seconds(1)
        try await store.execute(one)
        var many = SaveRequest(transactionAuthor: "app")
        for index in 0..<50 { many.add(Make.person("P\(index)", "N\(index)")) }
        many.deadline = .now + .seconds(3_600)
        try await store.execute(many)
        #expect(try await store.contactCount() == 51)
    }
}
