import CarnetStore
import Foundation

/// `carnet-bench --duplicates`: the first page of `duplicateCandidates` on a book of `size` generated contacts of
/// which about 5% duplicate an earlier one (issue 16's goal: under 2 s at 100,000).
///
/// Every twentieth contact is a duplicate of one of the ten before it, in turn: the same email in capitals, the same
/// phone number under another person's name, the same name in capitals, or the given name the other's nickname.
/// The rest are `DataGenerator`'s people, whose shared names, organizations and company emails give the chance
/// candidates a real book has. The book is made once per backend and reused: a SQLite file in `directory`, a book
/// `bench-duplicates-<size>` in the PostgreSQL database of `databaseURL`.
struct DuplicateBenchmark {
    let size: Int
    let backends: [BackendStore.Kind]
    let databaseURL: String?
    let directory: String
    let seed: UInt64
    let runs: Int
    /// The contacts a nickname duplicate points at (they get the nickname).
    private let nicknamed: Set<Int>

    init(size: Int, backends: [BackendStore.Kind], databaseURL: String?, directory: String, seed: UInt64, runs: Int) {
        (self.size, self.backends, self.databaseURL, self.directory, self.seed, self.runs) =
            (size, backends, databaseURL, directory, seed, runs)
        nicknamed = Set(
            stride(from: 79, to: size, by: 80).map { index in
                var rng = SplitMix64(seed: seed, stream: 16, index: index)
                return index - 1 - rng.int(0...9)
            })
    }

    func run() async throws {
        var rows: [String] = []
        for kind in backends {
            let (store, close) = try await open(kind)
            if try await store.contactCount() != size {
                log("adding \(size) contacts with duplicates on \(kind.rawValue)")
                for batch in stride(from: 0, to: size, by: 1_000) {
                    var request = SaveRequest(transactionAuthor: "bench")
                    for contact in contacts(batch..<min(size, batch + 1_000)) { request.add(contact) }
                    try await store.execute(request)
                }
            }
            _ = try await store.duplicateCandidates(DuplicateCandidateRequest(first: 100))  // warm
            var samples: [Double] = []
            var page: DuplicateCandidatePage?
            for _ in 0..<runs {
                let timed = try await Stopwatch.time {
                    try await store.duplicateCandidates(DuplicateCandidateRequest(first: 100))
                }
                page = timed.value
                samples.append(timed.seconds * 1_000_000)
            }
            let stats = Stats(microseconds: samples)
            let kinds = Dictionary(grouping: page?.candidates ?? [], by: { $0.reasons[0].kind }).mapValues(\.count)
            rows.append(
                String(
                    format: "| %@ | %d | %.0f ms | %.0f ms | %d | %@ |", kind.rawValue, size, stats.p50 / 1000,
                    stats.max / 1000, page?.totalCount ?? 0,
                    kinds.map { "\($0.key.rawValue) \($0.value)" }.sorted().joined(separator: ", ")))
            try await close()
        }
        print("\n| Backend | Contacts | First page p50 | max | Candidates | First page's top reasons |")
        print("| --- | --- | --- | --- | --- | --- |")
        for row in rows { print(row) }
    }

    /// The contacts `range` of the book: `DataGenerator`'s people, every twentieth replaced by a duplicate.
    func contacts(_ range: Range<Int>) -> [Contact] {
        let generator = DataGenerator(seed: seed)
        return range.map { index in
            guard index % 20 == 19 else { return original(index, generator).contact }
            var rng = SplitMix64(seed: seed, stream: 16, index: index)
            let source = index - 1 - rng.int(0...9)
            let other = generator.person(index, stream: 16)
            var duplicate = original(source, generator)
            duplicate.identifier = nil
            switch index / 20 % 4 {
            case 0:  // the same email, capitalized; another phone
                duplicate.emails = duplicate.emails.prefix(1).map {
                    .init(label: $0.label, value: $0.value.uppercased())
                }
                duplicate.phones = other.phones
            case 1:  // the same phone, another person's name and email
                duplicate = other
                duplicate.phones = Array(original(source, generator).phones.prefix(1))
            case 2:  // the same name in capitals, nothing else
                duplicate.givenName = duplicate.givenName.uppercased()
                duplicate.familyName = duplicate.familyName.uppercased()
                (duplicate.emails, duplicate.phones) = (other.emails, other.phones)
            default:  // a nickname: the source's nickname as the given name
                duplicate.givenName = nickname(source)
                (duplicate.emails, duplicate.phones) = (other.emails, other.phones)
            }
            return duplicate.contact
        }
    }

    /// Person `index` of the book (before duplicates), with a nickname when a duplicate goes by it.
    private func original(_ index: Int, _ generator: DataGenerator) -> Person {
        var person = generator.person(index)
        if nicknamed.contains(index) { person.nickname = nickname(index) }
        return person
    }

    private func nickname(_ index: Int) -> String { "Nick\(index % 97)" }

    private func open(_ kind: BackendStore.Kind) async throws -> (any ContactStore, () async throws -> Void) {
        try await BenchBook.open(kind, name: "duplicates", size: size, directory: directory, databaseURL: databaseURL)
    }
}
