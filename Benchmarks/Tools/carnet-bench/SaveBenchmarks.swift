import CarnetStore
import CarnetStoreSQLite
import Foundation
import GRDB

/// Saves of new contacts: 1 per request and 100 per request, through Carnet and as hand-written inserts.
/// Everything added is deleted afterwards (through the store), so the data set keeps its size.
struct SaveBenchmarks {
    let store: SQLiteStore
    let raw: DatabasePool
    let generator: DataGenerator
    let iterations: Int

    func run() async throws -> [OperationResult] {
        let container = try await raw.read { db in try RawSave.defaultContainer(db) }
        var nextIndex = 0
        /// Fresh people, without identifiers (the store makes them, as for any new contact).
        func people(_ count: Int) -> [Person] {
            defer { nextIndex += count }
            return (nextIndex..<(nextIndex + count)).map { generator.person($0, stream: 1) }
        }
        /// The same with identifiers, for the hand-written inserts, made as the store makes them.
        func identified(_ batches: ArraySlice<[Person]>) -> [[Person]] {
            batches.map { batch in
                batch.map { person in
                    var person = person
                    person.identifier = Contact.makeIdentifier()
                    return person
                }
            }
        }
        var results: [OperationResult] = []
        for (name, perSave, count) in [
            ("Save 1 contact", 1, min(iterations, 300)),
            ("Save 100 contacts", 100, max(20, min(iterations / 20, 50))),
        ] {
            log("  \(name)")
            let warmup = 5
            let batches = (0..<(3 * (count + warmup))).map { _ in people(perSave) }
            var added: [String] = []
            let requests = batches.prefix(count + warmup).map { batch in
                var request = SaveRequest(transactionAuthor: "carnet-bench")
                for person in batch {
                    let contact = person.contact
                    added.append(contact.identifier)
                    request.add(contact)
                }
                return request
            }
            let store = self.store
            let raw = self.raw
            let carnet = try await Stopwatch.measure(iterations: count, warmup: warmup) { index in
                try await store.execute(requests[index])
            }
            let asyncBatches = identified(batches[(count + warmup)..<(2 * (count + warmup))])
            let rawAsync = try await Stopwatch.measure(iterations: count, warmup: warmup) { index in
                let batch = asyncBatches[index]
                try await raw.write { db in try RawSave.save(db, batch, container: container) }
            }
            let syncBatches = identified(batches[(2 * (count + warmup))...])
            let rawSync = try Stopwatch.measureSync(iterations: count, warmup: warmup) { index in
                try raw.write { db in try RawSave.save(db, syncBatches[index], container: container) }
            }
            results.append(
                OperationResult(
                    name: name, carnet: carnet.stats, raw: rawAsync.stats, rawSync: rawSync.stats,
                    note: "\(count) saves; each person has 1–3 phones, 1–3 emails, 0–2 addresses"))
            try await delete(added + (asyncBatches + syncBatches).flatMap { $0.compactMap(\.identifier) })
        }
        return results
    }

    /// Removes what the benchmark added, through the store so its bookkeeping stays right.
    private func delete(_ identifiers: [String]) async throws {
        for chunk in stride(from: 0, to: identifiers.count, by: 5_000) {
            var request = SaveRequest(transactionAuthor: "carnet-bench-cleanup")
            for id in identifiers[chunk..<min(identifiers.count, chunk + 5_000)] {
                request.delete(contactWithIdentifier: id)
            }
            try await store.execute(request)
        }
    }
}
