import CarnetStore
import CarnetStoreSQLite
import Foundation
import Synchronization
import Testing

@testable import CarnetGraphQL

/// A planner bug must not crash the server: a writer that finds a key it reads was not fetched fails that field
/// with INTERNAL_SERVER_ERROR and reports the fault, where `Contact`'s accessor would trap (as `CNContact` does).
@Suite("Unfetched keys on the request path")
struct UnfetchedKeyTests {
    @Test("A field whose keys were not fetched is null with INTERNAL_SERVER_ERROR; the others are written")
    func unfetchedKeyFailsTheField() async throws {
        let reported = Mutex<[String]>([])
        let (executor, fields, partial) = try await Self.prepare("givenName birthday { year }") { error in
            reported.withLock { $0.append("\(error)") }
        }
        // As a planner that forgot `birthday` would have fetched it.
        #expect(!partial.isKeyAvailable(.birthday))

        #expect(executor.writeContact(partial, fields))
        #expect(String(decoding: executor.writer.bytes, as: UTF8.self) == #"{"givenName":"Ann","birthday":null}"#)
        #expect(executor.errors.map(\.code) == [.internalServerError])
        #expect(executor.errors.first?.message == "Internal server error.")
        #expect(reported.withLock { $0 } == ["Contact.birthday reads keys that were not fetched"])
    }

    @Test("A non-null field whose keys were not fetched nulls its parent, as any failing non-null field does")
    func unfetchedNonNullKey() async throws {
        let (executor, fields, partial) = try await Self.prepare("givenName note")
        #expect(!executor.writeContact(partial, fields))
        #expect(executor.errors.map(\.code) == [.internalServerError])
    }

    /// A stored contact with a birthday, an executor for `{ contact(id:) { selection } }` and its `Contact` field
    /// plans, and the contact fetched with its given name only.
    static func prepare(
        _ selection: String, onUnexpectedError: @escaping @Sendable (any Error) -> Void = { _ in }
    ) async throws -> (Executor, [FieldPlan], Contact) {
        let store = try SQLiteStore.inMemory()
        let service = GraphQLService(store: store, limits: .unhurried, onUnexpectedError: onUnexpectedError)
        var contact = Contact()
        contact.givenName = "Ann"
        contact.birthday = ContactDate(year: 1990, month: 4, day: 2)
        var request = SaveRequest(transactionAuthor: "test")
        request.add(contact)
        try await store.execute(request)
        let operation = try service.operation(
            for: GraphQLRequestBody(query: "{ contact(id: \"\(contact.identifier)\") { \(selection) } }"))
        let executor = service.makeExecutor(operation, GraphQLRequestContext())
        let fields = try #require(try executor.planRoot().first?.selection?.fields(for: "Contact"))
        let partial = try await store.contact(withIdentifier: contact.identifier, keysToFetch: [.givenName])
        return (executor, fields, partial)
    }
}
