import CarnetStoreTestSupport
import GRDB
import Testing

@testable import CarnetStore
@testable import CarnetStoreSQLite

/// Reads that once trusted their callers or the file with a trap: a caller's mistake or a damaged file is now an
/// answer or a store error.
@Suite("Defensive reads")
struct DefensiveReadTests {
    @Test("A group named twice in a members load is one entry with its members", arguments: StoreKind.sqlite)
    func groupNamedTwice(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).sqliteStore
        let anna = Make.person("Anna", "Smith")
        let group = Group(name: "Friends")
        var request = SaveRequest(transactionAuthor: "test")
        request.add(anna)
        request.add(group)
        request.addMember(anna.identifier, toGroup: group.identifier)
        try await store.execute(request)
        let members = try await store.members(
            ofGroups: [group.identifier, group.identifier], keysToFetch: [.givenName])
        #expect(members.count == 1)
        #expect(members[group.identifier]?.map(\.identifier) == [anna.identifier])
    }

    @Test("A store whose default container is gone answers STORAGE_FAILURE, not a trap", arguments: StoreKind.sqlite)
    func noDefaultContainer(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).sqliteStore
        _ = try await store.defaultContainer()
        try await store.writer.write { db in try db.execute(sql: "UPDATE container SET isDefault = 0") }
        await #expect(throws: StoreError.self) { _ = try await store.defaultContainer() }
        do {
            _ = try await store.defaultContainer()
        } catch let error as StoreError {
            #expect(error.code == .storageFailure)
        }
    }
}
