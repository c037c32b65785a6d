import CarnetStore
import CarnetStorePostgres

/// A save on one instance reaching a subscriber on another: two `PostgresBackend`s opened on the same database
/// (two pools and two listening connections, as two servers have), saves on A, `changes()` on B.
///
/// Polling is set to an hour on both, so only the LISTEN/NOTIFY wake-up can deliver a commit. Saves run one at a
/// time and each waits for its delivery, so no two commits fold into one change. The latency is measured from the
/// moment A's `execute` returns (the commit is durable and the NOTIFY sent) and, for reference, from the call's start.
enum NotifyLatency {
    struct Result: Codable, Sendable {
        var saves: Int
        var fromReturn: Stats
        var fromCall: Stats
        var lost: Int
    }

    /// How long a save may take to arrive before it counts as lost.
    static let timeout: Duration = .seconds(5)

    static func run(url: String, saves: Int, generator: DataGenerator) async throws -> Result {
        var configuration = StoreConfiguration()
        configuration.externalChangePollInterval = 3_600
        let a = try await PostgresBackend.open(try PostgresLocation(url: url), configuration: configuration)
        let b = try await PostgresBackend.open(try PostgresLocation(url: url), configuration: configuration)
        let book = try await PostgresDataset.adminBook(a)
        let writer = try await a.books.acquire(book)
        let reader = try await b.books.acquire(book)

        let (arrivals, arrival) = AsyncStream.makeStream(of: (revision: Int64, at: ContinuousClock.Instant).self)
        let changes = await reader.changes()
        let subscriber = Task {
            for await change in changes { arrival.yield((change.revision, Stopwatch.clock.now)) }
        }
        var iterator = arrivals.makeAsyncIterator()
        var fromReturn: [Double] = []
        var fromCall: [Double] = []
        var lost = 0
        var added: [String] = []
        let warmup = 10
        for index in 0..<(saves + warmup) {
            let contact = generator.person(index, stream: 4).contact
            added.append(contact.identifier)
            var request = SaveRequest(transactionAuthor: "carnet-bench-notify")
            request.add(contact)
            let start = Stopwatch.clock.now
            let result = try await writer.execute(request)
            let returned = Stopwatch.clock.now
            guard let revision = result.revision else { continue }
            let watchdog = Task {
                try await Task.sleep(for: timeout)
                arrival.yield((-1, Stopwatch.clock.now))
            }
            var delivered: ContinuousClock.Instant?
            while let next = await iterator.next() {
                if next.revision < 0 { break }
                if next.revision >= revision {
                    delivered = next.at
                    break
                }
            }
            watchdog.cancel()
            guard index >= warmup else { continue }
            guard let delivered else {
                lost += 1
                continue
            }
            fromReturn.append((delivered - returned).microseconds)
            fromCall.append((delivered - start).microseconds)
        }
        subscriber.cancel()
        arrival.finish()
        var cleanup = SaveRequest(transactionAuthor: "carnet-bench-cleanup")
        for id in added { cleanup.delete(contactWithIdentifier: id) }
        try await writer.execute(cleanup)
        try await b.close()
        try await a.close()
        return Result(
            saves: fromReturn.count, fromReturn: Stats(microseconds: fromReturn),
            fromCall: Stats(microseconds: fromCall),
            lost: lost)
    }
}
