import CarnetStoreTestSupport
import Testing

@testable import CarnetStore

@Suite("Change notifications under backpressure")
struct StoreChangesTests {
    @Test("A subscriber that does not read gets every commit's author in one element, none dropped")
    func slowSubscriber() async throws {
        let store = try await StoreFixture(.inMemory).store
        let changes = await store.changes()
        var last: SaveResult?
        for index in 0..<300 { last = try await store.add([Make.person("P\(index)", "Slow")], author: "app-\(index)") }
        let iterator = changes.makeAsyncIterator()
        let change = try #require(await iterator.next())
        #expect(change.authors == (0..<300).map { "app-\($0)" })
        #expect(change.token == last?.historyToken)
        #expect(change.revision == last?.revision)
        try await store.add([Make.person("Later", "One")], author: "later")
        #expect(await iterator.next()?.authors == ["later"])
    }

    @Test("Closing the store ends the sequence; cancelling a waiting reader ends its wait")
    func ending() async throws {
        let store = try await StoreFixture(.inMemory).store
        let changes = await store.changes()
        let waiting = Task { await changes.makeAsyncIterator().next() }
        waiting.cancel()
        #expect(await waiting.value == nil)
        let open = await store.changes()
        let reader = Task { await open.makeAsyncIterator().next() }
        try await store.close()
        #expect(await reader.value == nil)
    }
}
