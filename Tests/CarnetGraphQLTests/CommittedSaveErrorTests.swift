import CarnetStore
import CarnetStorePostgres
import CarnetStoreTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import CarnetGraphQL

/// A save that committed is never reported as one that wrote nothing: on PostgreSQL a save of thousands of
/// contacts outlasted the execution budget, committed, and answered `data: null` with MAX_EXECUTION_TIME_EXCEEDED
/// (an outside tester's find), so a client retried it and added every contact twice.
@Suite("Errors after a save's commit")
struct CommittedSaveErrorTests {
    static func saveDocument(_ count: Int, note: String = "n") -> String {
        let operations = (0..<count).map { "{addContact: {givenName: \"P\($0)\", note: \"\(note)\"}}" }
        return "mutation { save(request: {operations: [\(operations.joined(separator: ", "))]}) "
            + "{ revision contacts { id note } } }"
    }

    /// An outside tester's find: a null `@skip` condition in a save's selection failed the field after the commit
    /// as if nothing had been written.
    @Test("A selection that cannot be collected after the save committed says the save was written")
    func conditionAfterCommit() async throws {
        let fixture = try GraphQLFixture()
        let document = """
            mutation($b: Boolean = true) { a: save(request: {operations: [{addGroup: {name: "G"}}]}) \
            { revision x: historyToken @skip(if: $b) } }
            """
        let response = try await fixture.run(document, ["b": .null])
        #expect(response.errorCodes == ["BAD_USER_INPUT"], "\(response.json.prefix(300))")
        #expect(response["errors"]?[0]?["extensions"]?["saveCommitted"] == .bool(true))
        #expect(response["errors"]?[0]?["extensions"]?["committed"] == .bool(true))
        #expect(try await fixture.store.groups().count == 1)
    }

    @Test("A save past the execution budget by the time it commits still answers what it saved")
    func pastTheDeadline() async throws {
        var limits = GraphQLLimits()
        // Far less than a save and its read-back take: the deadline has passed when the save's contact is read back.
        limits.maxExecutionTime = .microseconds(50)
        let fixture = try GraphQLFixture(limits: limits)
        // A save's first operation always runs (the deadline is checked before each later one), so this one
        // commits past the deadline, and its answer says what it saved.
        let response = try await fixture.run(Self.saveDocument(1))
        #expect(response["errors"] == nil, "\(response.json.prefix(300))")
        #expect(response["data"]?["save"]?["contacts"]?.arrayValue?.count == 1)
        #expect(try await fixture.store.contactCount() == 1)

        // Many operations stop at the deadline before their commit (an outside tester's find: a minute-long save
        // held every other writer of the book): nothing is written, and the error does not say it was.
        let many = try await fixture.run(Self.saveDocument(400))
        #expect(many.errorCodes == ["MAX_EXECUTION_TIME_EXCEEDED"], "\(many.json.prefix(300))")
        #expect(many["errors"]?[0]?["extensions"]?["saveCommitted"] == nil)
        #expect(try await fixture.store.contactCount() == 1)

        // The budget still holds for what runs after: a second save in the same operation starts past it.
        let two = try await fixture.run(
            "mutation { a: save(request: {operations: [{addContact: {givenName: \"A\"}}]}) { revision } "
                + "b: save(request: {operations: [{addContact: {givenName: \"B\"}}]}) { revision } }")
        #expect(two.errorCodes == ["MAX_EXECUTION_TIME_EXCEEDED"], "\(two.json)")
        #expect(two["errors"]?[0]?["path"]?[0]?.stringValue == "b")
        #expect(two["errors"]?[0]?["extensions"]?["saveCommitted"] == nil, "b wrote nothing")
        #expect(try await fixture.store.contactCount() == 2)
    }

    @Test("An error after the commit says the save committed, with its revision and history token")
    func responseLimitAfterCommit() async throws {
        var limits = GraphQLLimits()
        limits.maxResponseBytes = 2_000
        let fixture = try GraphQLFixture(limits: limits)
        let note = String(repeating: "n", count: 500)
        let response = try await fixture.run(Self.saveDocument(10, note: note))
        #expect(response["data"] == .null, "save is non-null")
        #expect(response.errorCodes == ["MAX_RESPONSE_BYTES_EXCEEDED"], "\(response.json.prefix(400))")
        let extensions = response["errors"]?[0]?["extensions"]
        #expect(extensions?["saveCommitted"] == true)
        let revision = try #require(extensions?["revision"]?.stringValue)
        let token = try #require(extensions?["historyToken"]?.stringValue)
        #expect(try await fixture.store.contactCount() == 10)
        #expect(try await fixture.store.currentHistoryToken() == token)
        let stored = try await fixture.data("{ contacts(first: 1) { nodes { revision } } }")
        #expect(stored["contacts"]?["nodes"]?[0]?["revision"]?.stringValue == revision)
    }

    /// An outside tester's find (round 21, under PostgreSQL restarts): a save committed, its read-back failed, and
    /// the error said "nothing was written. Retry shortly." with `retryAfterSeconds`, beside `saveCommitted: true`;
    /// a client that followed it wrote the contact twice.
    @Test(
        "A read-back that fails after the commit never says nothing was written, nor when to retry",
        .enabled(if: PostgresTestDatabase.isConfigured || PostgresTestDatabase.isRequired))
    func unavailableAfterCommit() async throws {
        try await PostgresTestDatabase.with { location in
            var configuration = StoreConfiguration()
            configuration.busyTimeout = 1
            let backend = try await PostgresBackend.open(location, configuration: configuration)
            let book = AddressBook(id: UUID().uuidString, name: "Locked", ownerID: "tests")
            let fixture = GraphQLFixture(store: try await backend.postgresBooks.store(book))
            let logger = Logger(label: "carnet.tests.postgres")
            let locker = try await PostgresDatabase.connect(location, logger: logger)
            // Another session holds the links' table, which adding a contact does not write and reading back its
            // linkedContacts reads: the read-back waits for the lock timeout and fails, after the commit.
            let response = try await locker.read { connection in
                try await connection.query("BEGIN", logger: logger)
                try await connection.query("LOCK TABLE contact_link IN ACCESS EXCLUSIVE MODE", logger: logger)
                let response = try await fixture.run(
                    "mutation { save(request: {operations: [{addContact: {givenName: \"Once\"}}]}) "
                        + "{ revision contacts { id linkedContacts { id } } } }")
                try await connection.query("ROLLBACK", logger: logger)
                return response
            }
            await locker.close()
            let error = response["errors"]?[0]
            #expect(error?["extensions"]?["code"]?.stringValue == "UNAVAILABLE", "\(response.json.prefix(400))")
            #expect(error?["extensions"]?["saveCommitted"] == true)
            #expect(error?["extensions"]?["retryAfterSeconds"] == nil)
            let message = try #require(error?["message"]?.stringValue)
            #expect(!message.contains("nothing was written") && !message.lowercased().contains("retry"), "\(message)")
            #expect(message.contains("was written") && message.contains("SQLSTATE 55P03"), "\(message)")
            #expect(try await fixture.store.contactCount() == 1)
        }
    }
}
