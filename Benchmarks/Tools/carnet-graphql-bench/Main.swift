import ArgumentParser
import CarnetGraphQL
import CarnetGraphQLReference
import CarnetStore
import CarnetStoreSQLite
import Foundation
import GRDB

/// The GraphQL benchmark: Carnet's executor, GraphQLSwift's reference executor and a hand-written raw-SQL-plus-JSON
/// baseline, in process, on the same data. Run it in release: `swift run -c release carnet-graphql-bench`.
@main
struct GraphQLBench: AsyncParsableCommand {
    @Option(help: "Contacts in the data set.") var contacts = 10_000
    @Option(help: "Timed iterations per operation (fewer for the slow ones).") var iterations = 500
    @Option(help: "Where the database goes.") var directory = "/tmp/carnet-graphql-bench"
    @Option(
        help:
            "Run only the Carnet side of one operation this many times (for profilers): contact, id, typename, search, page1000, history, storehistory, basehistory, historyratio, fullsync, basefullsync, fullsyncratio, split."
    )
    var profile: String?

    func run() async throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = "\(directory)/bench-\(contacts).sqlite"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let store = try SQLiteStore.open(path: path)
        let started = ContinuousClock.now
        let seeded = try await Seed.run(store, contacts: contacts)
        print("seeded \(contacts) contacts in \(ContinuousClock.now - started)")
        if profile == "import" { return }
        let raw = try DatabasePool(
            path: path,
            configuration: {
                var c = Configuration()
                c.readonly = true
                return c
            }())
        let bench = Workloads(
            store: store, service: GraphQLService(store: store), reference: try ReferenceSchema.make(),
            raw: raw, seeded: seeded, iterations: iterations)
        if let profile {
            try await bench.profile(profile)
            return
        }
        let rows = try await bench.all()
        Report.print(rows, contacts: contacts)
    }
}
