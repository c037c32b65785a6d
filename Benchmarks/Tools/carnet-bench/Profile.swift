import ArgumentParser
import CarnetStore
import CarnetStoreSQLite
import Foundation
import GRDB

/// `--profile OPERATION`: runs one Carnet operation in a loop for a while and nothing else, to record it with
/// `perf record` when a ratio needs explaining.
enum Profile {
    static let operations = [
        "importfloor", "fold", "verify", "stream", "fetch", "search", "email", "page", "history", "import", "save100",
        "slowsearch",
    ]

    static func run(_ operation: String, dataset: Dataset, seconds: Double) async throws {
        if operation == "importfloor" {
            let result = try await ImportFloor.run(
                generator: DataGenerator(seed: dataset.info.seed), count: dataset.info.size,
                directory: (dataset.path as NSString).deletingLastPathComponent)
            return print(Report.milliseconds(result.carnet.p50), Report.milliseconds(result.raw!.p50), result.note!)
        }
        let store = try SQLiteStore.open(path: dataset.path)
        let raw = try RawDatabase.open(path: dataset.path)
        let workload = try await Workload.build(raw, count: 1_000, seed: 7)
        if operation == "fullsync" {
            // Counts a full sync's events by kind, and the records that come more than once.
            var token: String?
            var kinds: [ChangeEventKind: Int] = [:]
            var seen = Set<String>()
            var repeated = 0
            var pages = 0
            var firstRepeatPage: Int?
            repeat {
                let page = try await store.changeHistory(
                    ChangeHistoryFetchRequest(
                        startingToken: token, includeGroupChanges: true, limit: 1_000))
                pages += 1
                for event in page.events {
                    kinds[event.kind, default: 0] += 1
                    let key = "\(event.kind.rawValue)|\(event.contactIdentifier ?? "")|\(event.groupIdentifier ?? "")"
                    if !seen.insert(key).inserted {
                        repeated += 1
                        if firstRepeatPage == nil { firstRepeatPage = pages }
                    }
                }
                token = page.token
                if !page.hasMore { break }
            } while true
            print(
                "pages \(pages), kinds \(kinds.sorted { $0.key.rawValue < $1.key.rawValue }), repeated \(repeated), first repeat on page \(firstRepeatPage.map(String.init) ?? "-")"
            )
            return
        }
        if operation == "fold" {
            for check in try await FoldCheck.run() { print("\(check.name) ← \(check.typed): \(check.found)") }
            return
        }
        if operation == "verify" {
            // Lists the inputs for which Carnet and the SQL floor return different result sizes.
            let checks: [(String, [String], (String) async throws -> Int, @Sendable (Database, String) throws -> Int)] =
                [
                    (
                        "name", workload.nameQueries(.oneWord) + workload.nameQueries(.twoWords),
                        { try await StoreQueries.search(store, .matchingName($0)) }, RawQueries.nameSearch
                    ),
                    (
                        "email", workload.emails, { try await StoreQueries.search(store, .matchingEmailAddress($0)) },
                        RawQueries.emailSearch
                    ),
                    (
                        "phone", workload.phones, { try await StoreQueries.search(store, .matchingPhoneNumber($0)) },
                        RawQueries.phoneSearch
                    ),
                ]
            for (name, inputs, carnet, sql) in checks {
                for input in inputs {
                    let a = try await carnet(input)
                    let b = try await raw.read { db in try sql(db, input) }
                    if a != b { print("\(name) \(input.debugDescription): Carnet \(a), SQL \(b)") }
                }
            }
            return
        }
        if operation == "slowsearch" {
            // The slowest name searches of each kind: each input's best of 5 runs, Carnet and the SQL floor.
            for kind in Workload.NameQuery.allCases {
                var timings: [(carnet: Double, sql: Double, input: String, count: Int)] = []
                for input in Set(workload.nameQueries(kind)) {
                    var carnet = Double.infinity
                    var sql = Double.infinity
                    var count = 0
                    for _ in 0..<5 {
                        let a = try await Stopwatch.time {
                            count = try await StoreQueries.search(store, .matchingName(input))
                        }
                        let b = try await Stopwatch.time {
                            _ = try await raw.read { db in try RawQueries.nameSearch(db, input) }
                        }
                        carnet = min(carnet, a.seconds * 1000)
                        sql = min(sql, b.seconds * 1000)
                    }
                    timings.append((carnet, sql, input, count))
                }
                timings.sort { $0.carnet > $1.carnet }
                print("\(kind.rawValue): \(timings.count) inputs")
                for t in timings.prefix(15) {
                    let match = try await raw.read { db in try RawQueries.match(db, t.input) }
                    print(
                        String(
                            format: "  %.3f ms Carnet, %.3f ms SQL  %@ → %@ (%d)", t.carnet, t.sql,
                            t.input.debugDescription, match, t.count))
                }
            }
            return
        }
        let deadline = Stopwatch.clock.now + .seconds(seconds)
        var runs = 0
        let ids = workload.identifiers
        let names = workload.nameQueries(.oneWord)
        let emails = workload.emails
        let marks = dataset.info.tokens.filter { dataset.info.importEvents - $0.eventsBefore >= 10_000 }
        while Stopwatch.clock.now < deadline {
            let i = runs % ids.count
            switch operation {
            case "fetch": _ = try await StoreQueries.fetchByID(store, ids[i])
            case "search": _ = try await StoreQueries.search(store, .matchingName(names[i % names.count]))
            case "email": _ = try await StoreQueries.search(store, .matchingEmailAddress(emails[i % emails.count]))
            case "page": _ = try await StoreQueries.page(store, after: nil)
            case "stream":
                var token: String? = nil
                var pages = 0
                repeat {
                    let page = try await store.changeHistory(
                        ChangeHistoryFetchRequest(
                            startingToken: token, includeGroupChanges: true, contactKeys: StoreQueries.fetchKeys,
                            limit: 1_000))
                    token = page.token
                    pages += 1
                    if !page.hasMore { break }
                } while true
                let rss = Memory.residentBytes
                Memory.trim()
                log(
                    "full sync \(runs): \(pages) pages, RSS \(rss >> 20) MB, after malloc_trim \(Memory.residentBytes >> 20) MB, heap \(Memory.anonymousBytes >> 20) MB"
                )
            case "history":
                _ = try await store.changeHistory(
                    ChangeHistoryFetchRequest(
                        startingToken: marks[i % marks.count].token, includeGroupChanges: true,
                        contactKeys: StoreQueries.fetchKeys, limit: 10_000))
            case "save100", "import":
                let generator = DataGenerator(seed: 99)
                var request = SaveRequest(transactionAuthor: "carnet-bench-profile")
                let count = operation == "import" ? 1_000 : 100
                for k in 0..<count {
                    var person = generator.person(runs * count + k, stream: 77)
                    person.identifier = Contact.makeIdentifier()
                    request.add(person.contact)
                }
                try await store.execute(request)
            default: throw CleanExit.message("operations: \(operations.joined(separator: ", "))")
            }
            runs += 1
        }
        log("\(operation): \(runs) runs in \(seconds) s")
        try await store.close()
    }
}
