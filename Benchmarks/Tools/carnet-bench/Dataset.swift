import CarnetStore
import CarnetStoreSQLite
import Foundation

/// What the benchmark knows about a generated database, saved next to it so later runs can reuse it.
struct DatasetInfo: Codable, Sendable {
    static let currentVersion = 3

    /// A history token taken after a batch of the import, with the number of events recorded before it.
    struct TokenMark: Codable, Sendable {
        var eventsBefore: Int
        var token: String
    }

    var version = DatasetInfo.currentVersion
    var size: Int
    var seed: UInt64
    var createdAt: Date
    var batchSize: Int
    /// Time spent inside `store.execute` for the whole import.
    var importStoreSeconds: Double
    /// The same plus generating the contacts.
    var importWallSeconds: Double
    /// Store time of each successive block of 100,000 contacts (the last may be shorter).
    var secondsPer100kBlock: [Double]
    var groupCount: Int
    var membershipCount: Int
    /// `changeEvent` position before the import; token `i` stands at `positionBefore + tokens[i].eventsBefore`.
    var positionBefore: Int64
    var importEvents: Int
    var initialToken: String
    var tokens: [TokenMark]
    var fileBytes: Int64 = 0
    /// The store's commit that generated the data (and so the import time).
    var revision: String?
    /// The share of the cores other processes kept busy while it was generated (0 to 1).
    var importContention: Double?
}

/// A generated database of `size` contacts: created on first use, reused afterwards.
struct Dataset: Sendable {
    var path: String
    var info: DatasetInfo

    static let batchSize = 1_000

    static func prepare(size: Int, directory: String, seed: UInt64, regenerate: Bool) async throws -> Dataset {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = "\(directory)/carnet-\(size).sqlite"
        let infoPath = "\(directory)/carnet-\(size).json"
        if !regenerate, let info = try await reusable(path: path, infoPath: infoPath, size: size, seed: seed) {
            log("reusing \(path) (\(size) contacts, generated \(info.createdAt))")
            return Dataset(path: path, info: info)
        }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let contention = Contention.start()
        var info = try await generate(size: size, path: path, seed: seed)
        info.importContention = contention.othersShare()
        info.fileBytes = fileSize(path)
        info.revision = Revision.atLaunch
        try JSONEncoder.bench.encode(info).write(to: URL(fileURLWithPath: infoPath))
        return Dataset(path: path, info: info)
    }

    /// The saved data set's description when the database matches it and today's schema.
    private static func reusable(path: String, infoPath: String, size: Int, seed: UInt64) async throws -> DatasetInfo? {
        guard let data = FileManager.default.contents(atPath: infoPath),
            let info = try? JSONDecoder.bench.decode(DatasetInfo.self, from: data),
            info.version == DatasetInfo.currentVersion, info.size == size, info.seed == seed,
            FileManager.default.fileExists(atPath: path)
        else { return nil }
        let directory = (path as NSString).deletingLastPathComponent
        guard try await RawDatabase.currentSchema(directory: directory) == RawDatabase.schema(path: path) else {
            log("\(path) has another schema than the current store's: regenerating")
            return nil
        }
        let store = try SQLiteStore.open(path: path)
        let count = try await store.contactCount()
        try await store.close()
        guard count == size else {
            log("\(path) holds \(count) contacts, not \(size): regenerating")
            return nil
        }
        return info
    }

    /// Imports the data set through the store API, in save requests of ``batchSize`` contacts plus their group
    /// memberships, and times it.
    private static func generate(size: Int, path: String, seed: UInt64) async throws -> DatasetInfo {
        log("generating \(size) contacts into \(path)")
        let generator = DataGenerator(seed: seed)
        let store = try SQLiteStore.open(path: path)
        let initialToken = try await store.currentHistoryToken()
        let positionBefore = try await RawDatabase.currentPosition(path: path)
        let author = "carnet-bench-import"

        let groupCount = max(10, size / 5_000)
        var groups: [String] = []
        var groupRequest = SaveRequest(transactionAuthor: author)
        for index in 0..<groupCount {
            let group = Group(
                name: "\(Names.groupNames[index % Names.groupNames.count]) \(index / Names.groupNames.count + 1)")
            groups.append(group.identifier)
            groupRequest.add(group)
        }
        let wallStart = Stopwatch.clock.now
        var storeSeconds = try await Stopwatch.time { try await store.execute(groupRequest) }.seconds
        var events = groupCount
        var tokens = [DatasetInfo.TokenMark(eventsBefore: events, token: try await store.currentHistoryToken())]
        var blocks: [Double] = []
        var blockSeconds = 0.0
        var memberships = 0

        for batchStart in stride(from: 0, to: size, by: batchSize) {
            var request = SaveRequest(transactionAuthor: author)
            var members: [(String, String)] = []
            for index in batchStart..<min(size, batchStart + batchSize) {
                let contact = generator.person(index).contact
                request.add(contact)
                var rng = SplitMix64(seed: seed, stream: 2, index: index)
                if rng.chance(0.15) {
                    let first = rng.skewed(groups)
                    members.append((contact.identifier, first))
                    if rng.chance(0.2) {
                        let second = rng.pick(groups)
                        if second != first { members.append((contact.identifier, second)) }
                    }
                }
            }
            for (contact, group) in members { request.addMember(contact, toGroup: group) }
            let request2 = request
            let (result, seconds) = try await Stopwatch.time { try await store.execute(request2) }
            storeSeconds += seconds
            blockSeconds += seconds
            events += request.operations.count
            memberships += members.count
            tokens.append(.init(eventsBefore: events, token: result.historyToken))
            let done = min(size, batchStart + batchSize)
            if done % 100_000 == 0 || done == size {
                blocks.append(blockSeconds)
                blockSeconds = 0
                log(String(format: "  %8d contacts imported, %.1f s in the store so far", done, storeSeconds))
            }
        }
        let wallSeconds = (Stopwatch.clock.now - wallStart).seconds
        try await store.close()
        try await RawDatabase.checkpoint(path: path)
        return DatasetInfo(
            size: size, seed: seed, createdAt: Date(), batchSize: batchSize, importStoreSeconds: storeSeconds,
            importWallSeconds: wallSeconds, secondsPer100kBlock: blocks, groupCount: groupCount,
            membershipCount: memberships, positionBefore: positionBefore, importEvents: events,
            initialToken: initialToken, tokens: tokens)
    }

    static func fileSize(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }
}

func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

extension JSONEncoder {
    static var bench: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}

extension JSONDecoder {
    static var bench: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
