import CarnetStore
import Foundation

/// `carnet-bench --unified`: issue 16's goal, a page of 50 contacts and a name search with unification on, each
/// within 1.5 times the same with it off, on a book of `size` generated contacts where 20% are linked in pairs:
/// contact 10k+1 (moved to a second container) is linked to contact 10k. The book is made once per backend and
/// reused: `unified-<size>.sqlite` in `directory`, book `bench-unified-<size>` in PostgreSQL. Each operation runs
/// `--iterations` / 5 times each way, alternating.
struct UnifiedBenchmark {
    let size: Int
    let backends: [BackendStore.Kind]
    let databaseURL: String?
    let directory: String
    let seed: UInt64
    let runs: Int
    /// Runs only the operations whose names contain this (`--unified-only`, for profiling one of them).
    let only: String?

    /// The operations timed: each runs with unification off, then on.
    static let operations: [(name: String, request: ContactFetchRequest)] = [
        (
            "First page of 50, family-name order",
            ContactFetchRequest(keysToFetch: keys, sortOrder: .familyName, page: .first(50))
        ),
        (
            "First page of 50, creation order",
            ContactFetchRequest(keysToFetch: keys, sortOrder: .none, page: .first(50))
        ),
        ("Name search \"smith\", 50", search("smith")),
        ("Name search \"anna\", 50", search("anna")),
        ("Name search \"ann sm\", 50", search("ann sm")),
    ]

    static let keys: ContactKeySet = [.givenName, .familyName, .organizationName, .emailAddresses, .phoneNumbers]

    static func search(_ text: String) -> ContactFetchRequest {
        ContactFetchRequest(predicate: .matchingName(text), keysToFetch: keys, sortOrder: .familyName, page: .first(50))
    }

    func run() async throws {
        var rows: [String] = []
        for kind in backends {
            let (store, close) = try await open(kind)
            try await fill(store, kind)
            for (name, plain) in Self.operations where only.map(name.contains) ?? true {
                var unified = plain
                unified.unifyResults = true
                // Alternating, so the machine's drift (a noisy VM) weighs on both sides of the ratio alike.
                let requests = [plain, unified]
                for request in requests { _ = try await store.contacts(request) }  // warm
                var samples: [[Double]] = [[], []]
                for run in 0..<runs {
                    for side in [run % 2, 1 - run % 2] {
                        let request = requests[side]
                        samples[side].append(
                            try await Stopwatch.time { try await store.contacts(request) }.seconds * 1e6)
                    }
                }
                let stats = samples.map { Stats(microseconds: $0) }
                rows.append(
                    String(
                        format: "| %@ | %d | %@ | %.2f ms | %.2f ms | %.2f× |", kind.rawValue, size, name,
                        stats[0].p50 / 1000, stats[1].p50 / 1000, stats[1].p50 / max(stats[0].p50, 1)))
            }
            try await close()
        }
        print("\n| Backend | Contacts | Operation | unify: false p50 | unify: true p50 | Ratio |")
        print("| --- | --- | --- | --- | --- | --- |")
        for row in rows { print(row) }
    }

    /// Adds the contacts and links the pairs, unless the book already holds them.
    private func fill(_ store: any ContactStore, _ kind: BackendStore.Kind) async throws {
        guard try await store.contactCount() != size else { return }
        log("adding \(size) contacts on \(kind.rawValue), 20% linked in pairs")
        var other = try await store.containers().first { !$0.isDefault }?.identifier
        if other == nil {
            other = try await store.addContainer(Container(name: "Other account", type: .cardDAV)).identifier
        }
        let generator = DataGenerator(seed: seed)
        var identifiers: [String] = []
        identifiers.reserveCapacity(size)
        for batch in stride(from: 0, to: size, by: 1_000) {
            var request = SaveRequest(transactionAuthor: "bench")
            for index in batch..<min(size, batch + 1_000) {
                let contact = generator.person(index).contact
                identifiers.append(contact.identifier)
                request.add(contact, toContainerWithIdentifier: index % 10 == 1 ? other : nil)
            }
            try await store.execute(request)
        }
        for batch in stride(from: 0, to: size, by: 5_000) {
            var request = SaveRequest(transactionAuthor: "bench")
            for index in stride(from: batch, to: min(size - 1, batch + 5_000), by: 10) {
                request.link(contactsWithIdentifiers: [identifiers[index], identifiers[index + 1]])
            }
            try await store.execute(request)
            if batch % 100_000 == 0 { log("linked through \(batch)") }
        }
    }

    private func open(_ kind: BackendStore.Kind) async throws -> (any ContactStore, () async throws -> Void) {
        try await BenchBook.open(kind, name: "unified", size: size, directory: directory, databaseURL: databaseURL)
    }
}
