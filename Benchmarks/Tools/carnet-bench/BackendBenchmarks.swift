import CarnetStore

/// The issue-18 operations on one backend's store, through `any ContactStore` only, on inputs drawn once from the
/// data set (`Workload`) so both backends answer the same queries in the same order.
struct BackendBenchmarks {
    let store: any ContactStore
    let workload: Workload
    let generator: DataGenerator
    let iterations: Int
    /// Timed runs of each kind of name search: fewer where a backend takes seconds per query (PostgreSQL at 1M).
    var searchIterations: Int? = nil

    /// The name searches of the goal: the three kinds of `carnet-bench`'s "Name-prefix search", one letter apart.
    static let nameKinds: [Workload.NameQuery] = [.oneWord, .twoWords, .familyPrefix]

    func run() async throws -> [OperationResult] {
        let store = self.store
        var results: [OperationResult] = []
        log("    contact by id")
        let ids = workload.identifiers
        let byID = try await Stopwatch.measure(iterations: iterations) { index in
            _ = try await StoreQueries.fetchByID(store, ids[index % ids.count])
        }
        results.append(OperationResult(name: "Contact by id, 8 keys", carnet: byID.stats))

        log("    name-prefix search")
        var mixed: [Double] = []
        var kinds: [OperationResult] = []
        for kind in Self.nameKinds {
            let queries = workload.nameQueries(kind)
            let measured = try await Stopwatch.measure(
                iterations: searchIterations ?? iterations, warmup: min(20, searchIterations ?? 20)
            ) { index in
                _ = try await StoreQueries.search(store, .matchingName(queries[index % queries.count]))
            }
            mixed += measured.samples
            kinds.append(OperationResult(name: "· " + kind.rawValue, carnet: measured.stats, isDetail: true))
        }
        results.append(
            OperationResult(
                name: "Name-prefix search, page of 50", carnet: Stats(microseconds: mixed),
                note: "the 3 kinds below in equal parts"))
        results += kinds

        log("    page of 50")
        var cursors: [String?] = []
        for start in workload.pageStarts {
            cursors.append(try await start.asyncMap { try await StoreQueries.cursor(store, after: $0.id) } ?? nil)
        }
        let page = try await Stopwatch.measure(iterations: iterations) { index in
            _ = try await StoreQueries.page(store, after: cursors[index % cursors.count])
        }
        results.append(
            OperationResult(
                name: "Page of 50 by family name", carnet: page.stats, note: "keyset page after a random contact"))

        log("    save 1 contact")
        results.append(try await saveOne())
        return results
    }

    /// Adds one new contact per save request, then deletes them all, so the data set keeps its size.
    private func saveOne() async throws -> OperationResult {
        let count = min(iterations, 500)
        let warmup = 5
        let contacts = (0..<(count + warmup)).map { generator.person($0, stream: 3).contact }
        let requests = contacts.map { contact in
            var request = SaveRequest(transactionAuthor: "carnet-bench")
            request.add(contact)
            return request
        }
        let store = self.store
        let added = contacts.map(\.identifier)
        let measured = try await Stopwatch.measure(iterations: count, warmup: warmup) { index in
            try await store.execute(requests[index])
        }
        var cleanup = SaveRequest(transactionAuthor: "carnet-bench-cleanup")
        for id in added { cleanup.delete(contactWithIdentifier: id) }
        try await store.execute(cleanup)
        return OperationResult(
            name: "Save 1 contact", carnet: measured.stats,
            note: "\(count) saves of a new contact with 1–3 phones, 1–3 emails, 0–2 addresses")
    }

    /// A full sync: `changeHistory` from no token in pages of 1,000 until `hasMore` is false, `runs` times.
    static func fullSync(_ store: any ContactStore, runs: Int) async throws -> (stats: Stats, events: Int) {
        var events = 0
        let measured = try await Stopwatch.measure(iterations: runs, warmup: 1) { _ in
            var token: String?
            var total = 0
            while true {
                let page = try await store.changeHistory(
                    ChangeHistoryFetchRequest(
                        startingToken: token, includeGroupChanges: true, contactKeys: StoreQueries.fetchKeys,
                        limit: 1_000))
                total += page.events.count
                token = page.token
                if !page.hasMore { break }
            }
            events = total
        }
        return (measured.stats, events)
    }
}
