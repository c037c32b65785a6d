import CarnetStore
import CarnetStoreSQLite
import GRDB

/// Times one operation three ways on the same inputs: through Carnet, as hand-written SQL through GRDB's async
/// read (the store's calling convention), and as the same SQL read synchronously (the absolute floor).
struct Comparison {
    let raw: DatabasePool
    let iterations: Int
    var warmup = 20

    /// Every timing of a comparison, to summarize several comparisons together.
    struct Samples {
        var carnet: [Double]
        var raw: [Double]
        var rawSync: [Double]
    }

    func run<Input: Sendable>(
        _ name: String, inputs: [Input], note: String? = nil, iterations: Int? = nil, check: Bool = true,
        carnet: (Input) async throws -> Int,
        sql: @escaping @Sendable (Database, Input) throws -> Int
    ) async throws -> OperationResult {
        try await runKeepingSamples(
            name, inputs: inputs, note: note, iterations: iterations, check: check, carnet: carnet, sql: sql
        ).0
    }

    func runKeepingSamples<Input: Sendable>(
        _ name: String, inputs: [Input], note: String? = nil, iterations: Int? = nil, check: Bool = true,
        carnet: (Input) async throws -> Int,
        sql: @escaping @Sendable (Database, Input) throws -> Int
    ) async throws -> (OperationResult, Samples) {
        precondition(!inputs.isEmpty, "no inputs for \(name)")
        let n = iterations ?? self.iterations
        log("  \(name)")
        // The floor must do the same work: compare result sizes on a few inputs first.
        var differing = 0
        let checked = check ? min(20, inputs.count) : 0
        for input in inputs.prefix(checked) {
            let expected = try await carnet(input)
            let got = try await raw.read { db in try sql(db, input) }
            if expected != got { differing += 1 }
        }
        var note = note
        if differing > 0 {
            let warning = "**SQL and Carnet returned different result sizes for \(differing) of \(checked) inputs**"
            note = note.map { "\($0); \(warning)" } ?? warning
            log("  warning: \(name): results differ for \(differing) of \(checked) inputs")
        }
        let store = try await Stopwatch.measure(iterations: n, warmup: warmup) { index in
            _ = try await carnet(inputs[index % inputs.count])
        }
        let pool = raw
        let async = try await Stopwatch.measure(iterations: n, warmup: warmup) { index in
            let input = inputs[index % inputs.count]
            _ = try await pool.read { db in try sql(db, input) }
        }
        let sync = try Stopwatch.measureSync(iterations: n, warmup: warmup) { index in
            let input = inputs[index % inputs.count]
            _ = try pool.read { db in try sql(db, input) }
        }
        return (
            OperationResult(name: name, carnet: store.stats, raw: async.stats, rawSync: sync.stats, note: note),
            Samples(carnet: store.samples, raw: async.samples, rawSync: sync.samples)
        )
    }
}

struct ReadBenchmarks {
    let store: SQLiteStore
    let comparison: Comparison
    let workload: Workload

    func run() async throws -> [OperationResult] {
        let store = self.store
        var results: [OperationResult] = []
        results.append(
            try await comparison.run(
                "Fetch by id, 8 keys", inputs: workload.identifiers,
                carnet: { try await StoreQueries.fetchByID(store, $0) }, sql: RawQueries.fetchByID))

        var allNames: [OperationResult] = []
        var mixed = Comparison.Samples(carnet: [], raw: [], rawSync: [])
        for kind in Workload.NameQuery.allCases {
            let queries = workload.nameQueries(kind)
            let counts = try await comparison.raw.read { db in
                try queries.prefix(300).map { try RawQueries.nameMatchCount(db, $0) }.sorted()
            }
            let naive = try await comparison.raw.read { db in
                try Stopwatch.measureSync(iterations: 100, warmup: 5) { index in
                    _ = try RawQueries.naiveNameSearch(db, queries[index % queries.count])
                }.stats
            }
            let note =
                "matches per query: median \(counts[counts.count / 2]), max \(counts.last ?? 0); "
                + "SQL sorting every match (`ORDER BY c.sortFamily`): p50 \(Report.milliseconds(naive.p50)), "
                + "p99 \(Report.milliseconds(naive.p99))"
            // One-letter queries match a large share of the contacts: fewer runs.
            var (result, samples) = try await comparison.runKeepingSamples(
                "· " + kind.rawValue, inputs: queries, note: note,
                iterations: kind == .oneLetter ? min(comparison.iterations, 200) : nil,
                carnet: { try await StoreQueries.search(store, .matchingName($0)) }, sql: RawQueries.nameSearch)
            result.isDetail = true
            allNames.append(result)
            if kind != .oneLetter {
                mixed.carnet += samples.carnet
                mixed.raw += samples.raw
                mixed.rawSync += samples.rawSync
            }
        }
        results.append(
            OperationResult(
                name: "Name-prefix search", carnet: Stats(microseconds: mixed.carnet),
                raw: Stats(microseconds: mixed.raw),
                rawSync: Stats(microseconds: mixed.rawSync), note: "the 3 kinds below in equal parts; 1 letter apart"))
        results += allNames

        results.append(
            try await comparison.run(
                "Email search", inputs: workload.emails, note: "stored address typed with other case or spaces",
                carnet: { try await StoreQueries.search(store, .matchingEmailAddress($0)) }, sql: RawQueries.emailSearch
            ))
        results.append(
            try await comparison.run(
                "Phone search", inputs: workload.phones, note: "stored number typed with other separators",
                carnet: { try await StoreQueries.search(store, .matchingPhoneNumber($0)) }, sql: RawQueries.phoneSearch)
        )

        let starts = workload.pageStarts
        var cursors: [String?] = []
        for start in starts {
            cursors.append(try await start.asyncMap { try await StoreQueries.cursor(store, after: $0.id) } ?? nil)
        }
        let pageInputs = zip(starts, cursors).map { PageInput(start: $0.0, cursor: $0.1) }
        results.append(
            try await comparison.run(
                "Page of 50 by family name", inputs: pageInputs, note: "keyset page after a random contact",
                carnet: { try await StoreQueries.page(store, after: $0.cursor) },
                sql: { db, input in try RawQueries.page(db, after: input.start.map { ($0.sortKey, $0.id) }) }))
        return results
    }

    struct PageInput: Sendable {
        var start: (id: String, sortKey: String)?
        var cursor: String?
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
