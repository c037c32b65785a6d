import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import Testing

@testable import CarnetStore
@testable import CarnetStoreSQLite

/// Random schedules of acquires, releases, saves and deletes against the pool of open books, its bookkeeping checked
/// after every step: held books stay open and usable, counts add up, and idle books close oldest first.
@Suite("Open books: generated schedules")
struct BookPoolModelTests {
    @Test("The pool's bookkeeping matches its stores under random schedules", arguments: 0..<8)
    func schedules(_ index: Int) async throws {
        let seed = UInt64(index) &* 0x5851_F42D_4C95_7F2D &+ 17
        var random = SeededRandom(seed: seed)
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try await DataFolder.open(directory: directory.path)
        let owner = try await folder.admin()
        var books: [AddressBook] = []
        for number in 0..<7 {
            books.append(try await folder.sqliteCatalog.createBook(name: "B\(number)", ownerID: owner.id))
        }
        let (capacity, budget) = (random.int(1...5), random.int(8...40))
        let pool = BookStores(directory: directory.path, capacity: capacity, descriptorBudget: budget)
        var held: [String: [SQLiteStore]] = [:]
        var lastRelease: [String: Int] = [:]
        for step in 0..<300 {
            let index = random.int(0...books.count - 1)
            let book = books[index]
            switch random.int(0...9) {
            case 0...2:
                held[book.id, default: []].append(try await pool.acquireStore(book))
            case 3...6:
                // Mostly books given back at once, as requests do, so that idle books pile up and are evicted.
                if held[book.id, default: []].isEmpty {
                    try await pool.withStore(book) { _ = try await $0.statistics() }
                    lastRelease[book.id] = step
                    break
                }
                guard held[book.id]?.isEmpty == false else { continue }
                held[book.id]?.removeLast()
                await pool.release(book.id)
                if held[book.id]?.isEmpty == true { lastRelease[book.id] = step }
            case 7, 8:
                guard let store = held[book.id]?.last else { continue }
                var request = SaveRequest(transactionAuthor: "model")
                var contact = Contact()
                contact.givenName = "S\(step)"
                request.add(contact)
                try await store.execute(request)
            default:
                guard held[book.id, default: []].isEmpty else { continue }
                try await pool.delete(book)
                lastRelease[book.id] = nil
                // A deleted book never opens again (identifiers are never reused): a new one takes its place.
                books[index] = try await folder.sqliteCatalog.createBook(name: "B\(step)", ownerID: owner.id)
            }
            let state = await pool.bookkeeping
            let context = "seed \(seed), step \(step), capacity \(capacity), budget \(budget)"
            for (id, stores) in held where !stores.isEmpty {
                #expect(state.leases[id] == stores.count, "a held book is open with its leases (\(context))")
                _ = try await stores[0].statistics()
            }
            let idle = state.leases.filter { $0.value == 0 }.map(\.key)
            #expect(state.idleCount == idle.count, "\(context)")
            #expect(state.descriptors == state.counted.values.reduce(0, +), "\(context)")
            for id in idle { #expect(state.counted[id] == state.actual[id], "\(context)") }
            #expect(
                idle.isEmpty || (state.leases.count <= capacity && state.descriptors <= budget),
                "idle books past the bounds stay open (\(context))")
            #expect(state.queued <= 2 * idle.count + 1_025, "\(context)")
            // Least recently used first: every idle book still open was given back after every one closed since.
            let openIdle = idle.compactMap { lastRelease[$0] }
            let closed = lastRelease.filter { state.leases[$0.key] == nil }.map(\.value)
            if let oldestOpen = openIdle.min(), let newestClosed = closed.max() {
                #expect(newestClosed < oldestOpen, "an idle book closed before an older one (\(context))")
            }
        }
        for (id, stores) in held { for _ in stores { await pool.release(id) } }
        await pool.closeAll()
        try await folder.close()
    }
}
