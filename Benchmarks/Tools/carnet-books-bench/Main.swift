import ArgumentParser
import CarnetServer
import CarnetStore
import CarnetStoreSQLite
import CarnetVCard
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Many address books on one server (issue "Accounts and address books"): contact by id on random books against
/// one book, the first request to a closed book, memory and open files while clients walk every book, and a save
/// to one book while a large import runs into another. Seeds its data folder once (minutes), then reuses it.
@main
struct BooksBench: AsyncParsableCommand {
    @Option(help: "Small books.") var small = 10_000
    @Option(help: "Contacts per small book.") var smallSize = 100
    @Option(help: "Large books.") var large = 10
    @Option(help: "Contacts per large book.") var largeSize = 100_000
    @Option(help: "Where the data folder goes (seeded once).") var directory = "/tmp/carnet-books-bench"
    @Option(help: "Requests per throughput round.") var requests = 20_000
    @Option(help: "Requests in flight.") var concurrency = 16
    @Option(help: "Books kept open when idle (default: the server's, 2,048, within the file-descriptor limit).")
    var openBooks: Int?
    @Option(help: "Random books drawn from the first this many (default: all but the cold ones).") var randomBooks: Int?
    @ArgumentParser.Flag(help: "Walk the random books in a fixed cycle (the pool's worst case), not drawn at random.")
    var sweep = false
    @ArgumentParser.Flag(help: "Only the rounds of contact by id (for profiling).") var roundsOnly = false
    @ArgumentParser.Flag(help: "Only the save beside an import.") var importOnly = false
    @ArgumentParser.Flag(help: "Stop after the first requests to closed books that follow the rounds (the pool full).")
    var stopAfterCold = false
    @ArgumentParser.Flag(help: "Only the first requests to closed books, on a server with an empty pool.")
    var coldOnly = false
    @Option(help: "With --cold-only: books opened first (a busy server's pool), then a pause of --pause seconds.")
    var fill = 0
    @Option(help: "Seconds to wait after --fill, or after the rounds (to attach a profiler).") var pause = 0
    @Option(help: "With --open-loop: books held open meanwhile, as a busy server's pool would.") var warmBooks = 0
    @Option(help: "Only open, read and close this many books in process (for profiling), then stop.") var openLoop = 0

    static let contactQuery = """
        query($b: ID!, $id: ID!) { addressBook(id: $b) { contact(id: $id) { id givenName familyName emailAddresses { value } } } }
        """

    func run() async throws {
        var store = StoreConfiguration()
        store.booksPerPrincipal = small + large + 10
        store.contactsPerBook = max(largeSize * 2, 1_000_000)
        var loaded = Manifest.load(directory)
        if loaded == nil {
            loaded = try await Manifest.seed(
                directory: directory, configuration: store, small: small, smallSize: smallSize, large: large,
                largeSize: largeSize)
        }
        guard let manifest = loaded else { throw BenchError("no data set") }
        if openLoop > 0 {
            let folder = try await DataFolder.open(directory: directory, configuration: store)
            for book in manifest.small.suffix(warmBooks) {
                guard let entry = try await folder.catalog.book(id: book.id) else { continue }
                _ = try await folder.bookStores.withStore(entry) { try await $0.statistics() }
            }
            print("held open: \(await folder.bookStores.openCount) books, \(ProcessStats.openFiles()) files")
            let samples = try await Self.openReadClose(folder, manifest.small.prefix(openLoop))
            print(
                String(
                    format: "open + read + close: p50 %.0f µs, p99 %.0f µs", samples.percentile(0.5),
                    samples.percentile(0.99)))
            try await folder.close()
            return
        }
        var configuration = ServerConfiguration()
        configuration.dataDirectory = directory
        configuration.port = 0
        configuration.rateLimitPerSecond = 0
        configuration.openBooks = openBooks
        configuration.storeConfiguration = store
        var logger = Logger(label: "carnet-books-bench")
        logger.logLevel = .warning
        let (ports, portSink) = AsyncStream<Int>.makeStream()
        let app = try await buildApplication(configuration: configuration, logger: logger) { port in
            portSink.yield(port)
            portSink.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let server = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), let ca = app.certificates?.caPath else {
            throw BenchError("the server did not start")
        }
        let token = try await app.tokens.create(
            name: "bench", scopes: [.read, .write], principalID: manifest.principalID
        ).token
        let client = Client(url: "https://localhost:\(port)/graphql", caPath: ca, token: token)
        defer { server.cancel() }
        try await measure(client, app, manifest)
        try await client.shutdown()
        await group.triggerGracefulShutdown()
        _ = try? await server.value
    }

    private func measure(_ client: Client, _ app: CarnetApplication, _ manifest: Manifest) async throws {
        if importOnly { return try await saveBesideImport(client, app, manifest) }
        let books = manifest.small
        // The last thousand small books stay untouched until the cold-book measurement.
        let warmable = books.dropLast(min(1_000, books.count / 10)).prefix(randomBooks ?? books.count)
        let home = books[0]
        let query = Self.contactQuery
        let contact: @Sendable (Manifest.Book, Int) -> (String, [String: String]) = { book, index in
            (query, ["b": book.id, "id": book.contacts[(index &* 7_919) % book.contacts.count]])
        }
        if coldOnly {
            let filling = Array(warmable.prefix(fill))
            if !filling.isEmpty {
                _ = try await client.load(requests: filling.count, concurrency: concurrency) {
                    contact(filling[$0], $0)
                }
                print("filled: \(filling.count) books opened", ProcessStats.openFiles(), "files")
                try await Task.sleep(for: .seconds(pause))
            }
            try await coldBooks(client, books)
            return try await coldBooks(client, books, label: "the same books again, open")
        }
        _ = try await client.load(requests: 500, concurrency: concurrency) { contact(home, $0) }
        var ratios: [Double] = []
        for round in 0..<3 {
            let one = try await client.load(requests: requests, concurrency: concurrency) { contact(home, $0) }
            let sweep = self.sweep
            let many = try await client.load(requests: requests, concurrency: concurrency) { index in
                // A cycle through every book misses an LRU pool smaller than the cycle on every request; a uniform
                // draw hits it in proportion to its size.
                let draw = sweep ? (index &* 104_729 &+ round) : Self.uniformDraw(index, round: round)
                return contact(warmable[warmable.startIndex + draw % warmable.count], index)
            }
            ratios.append(many.perSecond / one.perSecond)
            print("round \(round): one book \(one.summary); random books \(many.summary)")
        }
        print(
            String(format: "contact by id on random books: %.0f%% of one book (median of 3)", ratios.sorted()[1] * 100))
        if roundsOnly { return }

        let openRun = try await Self.openReadClose(app.backend as! DataFolder, manifest.small.prefix(300))
        print(
            String(
                format: "in process, open + read + close of a book: p50 %.0f µs, p99 %.0f µs", openRun.percentile(0.5),
                openRun.percentile(0.99)))

        if pause > 0 {
            print("pausing \(pause) s before the first requests to closed books", ProcessStats.openFiles(), "files")
            try await Task.sleep(for: .seconds(pause))
        }
        try await coldBooks(client, books)
        if stopAfterCold { return }

        var peak = (rss: ProcessStats.residentBytes(), files: ProcessStats.openFiles())
        print("before the walk: RSS \(peak.rss >> 20) MiB, \(peak.files) open files")
        for start in stride(from: 0, to: books.count, by: 500) {
            let slice = Array(books[start..<min(start + 500, books.count)])
            _ = try await client.load(requests: slice.count, concurrency: concurrency) { contact(slice[$0], $0) }
            peak = (max(peak.rss, ProcessStats.residentBytes()), max(peak.files, ProcessStats.openFiles()))
        }
        print("walking all \(books.count) books: peak RSS \(peak.rss >> 20) MiB, peak \(peak.files) open files")

        try await saveBesideImport(client, app, manifest)
    }

    /// One request to each of the last thousand small books, which nothing has opened yet.
    private func coldBooks(
        _ client: Client, _ books: [Manifest.Book], label: String = "first request to a closed book"
    ) async throws {
        var cold: [Double] = []
        for (index, book) in books.suffix(min(1_000, books.count / 10)).enumerated() {
            cold.append(
                try await client.post(
                    Self.contactQuery, ["b": book.id, "id": book.contacts[index % book.contacts.count]]))
        }
        let coldRun = Run(samples: cold.sorted(), seconds: 1)
        print(
            String(
                format: "%@: p50 %.0f µs, p99 %.0f µs", label, coldRun.percentile(0.5),
                coldRun.percentile(0.99)))
    }

    /// A uniform draw for a request of a round, the same on every run (SplitMix64's finaliser over both).
    static func uniformDraw(_ index: Int, round: Int) -> Int {
        var z = UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(truncatingIfNeeded: round)
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: (z ^ (z >> 31)) >> 1)
    }

    /// Each book opened, read once and closed again, without HTTP: through a pool of its own that keeps one book.
    static func openReadClose(_ folder: DataFolder, _ books: ArraySlice<Manifest.Book>) async throws -> Run {
        let pool = BookStores(directory: folder.directory, configuration: folder.bookStores.configuration, capacity: 1)
        var opens: [Double] = []
        for book in books {
            let start = ContinuousClock.now
            guard let entry = try await folder.catalog.book(id: book.id) else { continue }
            _ = try await pool.withStore(entry) { store in
                try await store.contacts(withIdentifiers: [book.contacts[0]], keysToFetch: [.givenName])
            }
            let elapsed = ContinuousClock.now - start
            opens.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
        }
        await pool.closeAll()
        return Run(samples: opens.sorted(), seconds: 1)
    }

    /// Single-contact saves into one book, idle and while 100,000 cards are imported into another.
    private func saveBesideImport(_ client: Client, _ app: CarnetApplication, _ manifest: Manifest) async throws {
        let save = """
            mutation($b: ID) { save(request: {transactionAuthor: "bench", operations: [{addContact: {givenName: "Saved"}}]}, addressBookId: $b) { revision } }
            """
        let target = manifest.small[1].id
        var idle: [Double] = []
        // A thousand, so that the idle p99 the goal divides by is not one unlucky sample.
        for _ in 0..<1_000 { idle.append(try await client.post(save, ["b": target])) }
        let book = try await app.backend.catalog.createBook(
            name: "Import \(UUID().uuidString.prefix(8))", ownerID: manifest.principalID)
        var cards = ""
        cards.reserveCapacity(largeSize * 120)
        for number in 0..<largeSize {
            cards += "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Imported \(number)\r\nN:\(number);Imported;;;\r\n"
            cards += "EMAIL;TYPE=HOME:i\(number)@example.com\r\nEND:VCARD\r\n"
        }
        let data = Data(cards.utf8)
        let folder = app.backend
        let finished = Flag()
        let importing = Task {
            defer { finished.set() }
            let start = ContinuousClock.now
            _ = try await folder.books.withStore(book) { store in
                try await VCardImporter(store: store, transactionAuthor: "import").importCards(data)
            }
            return ContinuousClock.now - start
        }
        var busy: [Double] = []
        // Saves while the import runs (at least 300 of them).
        while busy.count < 300 || !finished.isSet {
            busy.append(try await client.post(save, ["b": target]))
            if busy.count > 100_000 { break }
        }
        let took = try await importing.value
        let (idleRun, busyRun) = (Run(samples: idle.sorted(), seconds: 1), Run(samples: busy.sorted(), seconds: 1))
        print(
            String(
                format:
                    "save beside a %d-card import (%@): idle p50 %.0f p99 %.0f µs, during p50 %.0f p90 %.0f p99 %.0f µs (%.2f×)",
                largeSize,
                "\(took)", idleRun.percentile(0.5), idleRun.percentile(0.99), busyRun.percentile(0.5),
                busyRun.percentile(0.9), busyRun.percentile(0.99),
                busyRun.percentile(0.99) / idleRun.percentile(0.99)))
        try await folder.books.delete(try await folder.catalog.deleteBook(id: book.id, by: manifest.principalID))
    }
}

/// This process's memory and open files, from /proc.
enum ProcessStats {
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return kilobytes * 1024
    }

    static func openFiles() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }
}

/// Set once, read from any task.
final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
