import Benchmark
import CarnetGraphQL
import CarnetStore
import CarnetVCard
import Foundation

/// The operations users wait on, measured by ordo-one/benchmark (wall clock percentiles, allocations, peak
/// memory, baselines to compare with): `CARNET_BENCHMARKS=1 swift package benchmark`. The comparisons with
/// hand-written SQL and GraphQLSwift's executor stay in `carnet-bench` and `carnet-graphql-bench`.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident], timeUnits: .microseconds,
        maxDuration: .seconds(5), maxIterations: 100_000)

    Benchmark(
        "Store: fetch a contact by id, 10k contacts",
        closure: { benchmark, fixture in
            for index in benchmark.scaledIterations {
                let id = fixture.identifiers[index % fixture.identifiers.count]
                blackHole(try await fixture.store.contact(withIdentifier: id, keysToFetch: Fixture.listKeys))
            }
        }, setup: { try await Fixture.shared() })

    Benchmark(
        "Store: name prefix search, page of 20, 10k contacts",
        closure: { benchmark, fixture in
            for index in benchmark.scaledIterations {
                let prefix = Fixture.prefixes[index % Fixture.prefixes.count]
                let request = ContactFetchRequest(
                    predicate: ContactPredicate(matchingName: prefix), keysToFetch: Fixture.listKeys,
                    sortOrder: .familyName, page: .first(20))
                blackHole(try await fixture.store.contacts(request))
            }
        }, setup: { try await Fixture.shared() })

    Benchmark(
        "Store: save one new contact", configuration: .init(maxIterations: 2_000),
        closure: { benchmark, fixture in
            for index in benchmark.scaledIterations {
                var request = SaveRequest(transactionAuthor: "benchmark")
                request.add(Fixture.person(index))
                blackHole(try await fixture.store.execute(request))
            }
        }, setup: { try await Fixture.shared() })

    Benchmark(
        "Store: history page of 1,000 events",
        closure: { benchmark, fixture in
            for _ in benchmark.scaledIterations {
                let request = ChangeHistoryFetchRequest(startingToken: fixture.firstToken, limit: 1_000)
                blackHole(try await fixture.store.changeHistory(request))
            }
        }, setup: { try await Fixture.shared() })

    Benchmark(
        "GraphQL: contact by id (cached document)",
        closure: { benchmark, fixture in
            for index in benchmark.scaledIterations {
                let id = fixture.identifiers[index % fixture.identifiers.count]
                let request = GraphQLRequestBody(
                    query:
                        "query($id: ID!) { contact(id: $id) { id givenName familyName emailAddresses { label value } } }",
                    variables: ["id": .string(id)])
                blackHole(await fixture.service.execute(request).body)
            }
        }, setup: { try await Fixture.shared() })

    Benchmark(
        "GraphQL: page of 1,000 contacts", configuration: .init(maxIterations: 500),
        closure: { benchmark, fixture in
            let request = GraphQLRequestBody(
                query: "{ contacts(first: 1000) { nodes { id givenName familyName phoneNumbers { label value } } } }")
            for _ in benchmark.scaledIterations { blackHole(await fixture.service.execute(request).body) }
        }, setup: { try await Fixture.shared() })

    Benchmark(
        "vCard: import 100,000 cards", configuration: .init(maxDuration: .seconds(120), maxIterations: 3),
        closure: { benchmark, file in
            for iteration in benchmark.scaledIterations {
                let store = try Fixture.emptyStore(named: "vcard-import-\(iteration)")
                benchmark.startMeasurement()
                blackHole(try await VCardImporter(store: store, transactionAuthor: "benchmark").importCards(file))
                benchmark.stopMeasurement()
                try await store.close()
            }
        }, setup: { VCardFile.make(cards: 100_000) })

    Benchmark(
        "vCard: export 100,000 cards", configuration: .init(maxDuration: .seconds(120), maxIterations: 3),
        closure: { benchmark, store in
            for _ in benchmark.scaledIterations {
                var bytes = 0
                blackHole(try await VCardExporter(store: store).export { bytes += $0.utf8.count })
                blackHole(bytes)
            }
        },
        setup: {
            let store = try Fixture.emptyStore(named: "vcard-export")
            _ = try await VCardImporter(store: store, transactionAuthor: "benchmark")
                .importCards(VCardFile.make(cards: 100_000))
            return store
        })
}
