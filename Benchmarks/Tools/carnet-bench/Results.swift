import Foundation

/// One row of the results table: Carnet against the hand-written SQL floor, read through the same async
/// GRDB API (`await pool.read`) and synchronously (the absolute floor).
struct OperationResult: Codable, Sendable {
    var name: String
    var carnet: Stats
    var raw: Stats?
    var rawSync: Stats?
    var note: String?
    /// Rows in the report grouped under a heading (name search kinds).
    var isDetail = false
}

/// Paging through the whole history in pages of 1,000: time and memory. Heap is the anonymous resident memory
/// (RssAnon); the file pages are the database file mapped by SQLite (`mmap_size`), which the kernel can reclaim.
struct StreamResult: Codable, Sendable {
    var name: String
    var pages: Int
    var events: Int
    var seconds: Double
    var heapBefore: Int
    /// Heap after 10%, 20%, ... 100% of the pages.
    var heapProgress: [Int]
    /// The largest heap sampled after a page.
    var heapPeak: Int
    var fileBefore: Int
    var filePeak: Int

    /// The peak during the stream over the heap before it.
    var growth: Int { max(0, heapPeak - heapBefore) }

    /// The growth from the first tenth of the stream to its peak: ~0 when memory does not depend on its length.
    var growthAfterFirstTenth: Int { max(0, heapPeak - (heapProgress.first ?? heapBefore)) }
}

/// The query plan of one statement the store ran for an operation.
struct PlanResult: Codable, Sendable {
    var operation: String
    var sql: String
    var plan: [String]
    var fullScans: [String]
    var tempSorts: Int
}

/// Whether a phone number typed in the other convention (international ↔ national) finds the contact.
struct PhoneFormatCheck: Codable, Sendable {
    var country: String
    var example: String
    var exampleQuery: String
    var tried: Int
    var found: Int
}

struct Machine: Codable, Sendable {
    var cpu: String
    var cores: Int
    var memoryGB: Double
    var os: String
    var sqlite: String
    var swift: String
    var buildMode: String
    /// The git commit of the benchmarked store.
    var revision: String = "unknown"
}

struct SizeResult: Codable, Sendable {
    var size: Int
    var date: Date
    var iterations: Int
    var machine: Machine
    var dataset: DatasetInfo
    var operations: [OperationResult]
    var streams: [StreamResult]
    var plans: [PlanResult]
    var phoneFormats: [PhoneFormatCheck]
    var folding: [FoldCheck.Case] = []
    /// Other benchmark processes seen running at the start or the end of this size's run.
    var concurrentBenchmarks: [String] = []
    /// The PRAGMAs the store set on its connections (the SQL floor's connections got the same).
    var settings = StoreSettings()
    /// The share of the cores other processes kept busy during the run (0 to 1).
    var contention: Double?

    static func path(directory: String, size: Int) -> String { "\(directory)/results-\(size).json" }

    func save(directory: String) throws {
        var copy = self
        copy.dataset.tokens = []  // large, and only needed to run the history benchmark
        try JSONEncoder.bench.encode(copy).write(to: URL(fileURLWithPath: Self.path(directory: directory, size: size)))
    }

    static func loadAll(directory: String) -> [SizeResult] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return files.filter { $0.hasPrefix("results-") && $0.hasSuffix(".json") }.compactMap { name in
            FileManager.default.contents(atPath: "\(directory)/\(name)")
                .flatMap { try? JSONDecoder.bench.decode(SizeResult.self, from: $0) }
        }.sorted { $0.size < $1.size }
    }
}
