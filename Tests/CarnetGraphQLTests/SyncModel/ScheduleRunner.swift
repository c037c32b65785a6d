import CarnetGraphQL
import CarnetTestSupport
import Foundation

/// One random schedule: writers saving as three authors, pull clients and slow subscribers syncing, restarts and
/// forced history expiry, then a check that every client holds what the server holds.
struct ScheduleRunner {
    static let authors = ["app-a", "app-b", "app-c"]

    let seed: UInt64
    var random: SeededRandom
    let world: SyncWorld
    var pullers: [PullClient] = []
    var subscribers: [SubscriberClient] = []
    var contactIds: [String] = []
    var groupIds: [String] = []
    /// Contacts a save result showed linked: what unlinking and preferring mostly name.
    var linkedIds: [String] = []
    /// How often an operation links, unlinks or prefers, in percent: a third of the schedules link a lot.
    let linkPercent: Int
    /// Contacts as a writer last read them: (revision, phones), possibly stale, for based-on-revision updates.
    var reads: [String: (revision: String, phones: [JSONValue])] = [:]
    /// Records the current save aims at (a subscriber's payload on its way), else none.
    var targets: (contacts: [String], groups: [String]) = ([], [])
    var log: [String] = []
    var steps = 0
    /// Saves with link operations that went through, for the summary: a model that never links tests nothing.
    var linkSaves = 0

    init(seed: UInt64, postgres: Bool = false) async throws {
        self.seed = seed
        var random = SeededRandom(seed: seed)
        // A third of the schedules run over three books: the owner's two and one shared with it.
        let books = random.chance(33)
        linkPercent = random.chance(33) ? 40 : 10
        world = try await SyncWorld(onDisk: random.chance(25), books: books, postgres: postgres)
        let lastBook = world.booksCount - 1
        for index in 0..<random.int(1...3) {
            var client = PullClient(
                name: "pull\(index)", author: random.pick(Self.authors)!, excludeOwn: random.chance(50),
                groupChanges: random.chance(70), pageSize: random.int(1...5))
            client.book = random.int(0...lastBook)
            client.asOther = client.book == 2 && random.chance(50)
            client.unify = random.chance(50)
            pullers.append(client)
        }
        for index in 0..<random.int(0...2) {
            subscribers.append(
                SubscriberClient(
                    name: "sub\(index)", author: random.pick(Self.authors)!, excludeOwn: random.chance(50),
                    groupChanges: random.chance(70), book: random.int(0...lastBook), unify: random.chance(50)))
        }
        self.random = random
    }

    mutating func run() async throws {
        defer { for subscriber in subscribers { subscriber.stop() } }
        for subscriber in subscribers {
            // Half start from the empty book's token rather than with a full sync, which would make their exclusion
            // deliver everything for the rest of the subscription.
            if random.chance(50) {
                let token = try await world.store(of: subscriber.book).currentHistoryToken()
                subscriber.progress.withLock { $0.token = token }
            }
            try await subscriber.start(world)
        }
        for _ in 0..<random.int(15...40) {
            steps += 1
            try await step()
        }
        try await finish()
    }

    private mutating func step() async throws {
        switch random.int(1...100) {
        case 1...45: try await save()
        case 46...70:
            let index = random.int(0...pullers.count - 1)
            log.append("pull \(pullers[index].name)")
            _ = try await pull(index)
        case 71...77:
            let index = random.int(0...pullers.count - 1)
            log.append("sync \(pullers[index].name)")
            try await sync(index)
        case 78...88:
            guard let subscriber = random.pick(subscribers) else { return }
            let count = random.int(1...3)
            log.append("\(subscriber.name) reads \(count)")
            subscriber.gate.allow(count)
        case 89...94:
            log.append("read contacts")
            try await refreshReads()
        case 95...97:
            guard world.directory != nil else { return }
            log.append("restart")
            try await restart()
        default:
            let book = random.int(0...world.booksCount - 1)
            log.append("expire history of book \(book)")
            try await world.store(of: book).compactHistory(olderThan: Date().addingTimeInterval(3600))
        }
    }

    /// Pulls one page; whether more are waiting.
    mutating func pull(_ index: Int) async throws -> Bool {
        // `other` reaches its book (the third) through the root fields, the owner through addressBook(id:).
        let root = pullers[index].book == 0 || pullers[index].asOther
        var variables = pullers[index].variables
        if !root { variables["book"] = world.bookVariable(pullers[index].book) }
        let result = try await world.run(
            root ? SyncDocuments.pull : SyncDocuments.bookPull, variables, asOther: pullers[index].asOther)
        let data = root ? result["data"] : result["data"]?["addressBook"]
        guard result["errors"] == nil, let page = data?["changeHistory"] else {
            throw ModelFailure("pull: \(result.json)")
        }
        pullers[index].state.apply(page: page)
        pullers[index].token = page["token"]?.stringValue
        return page["hasMore"] == .bool(true)
    }

    mutating func sync(_ index: Int) async throws {
        var pages = 0
        while try await pull(index) {
            pages += 1
            // Every page moves the token on; a loop that never ends is a bug, not a slow sync.
            guard pages < 10_000 else { throw ModelFailure("\(pullers[index].name) never caught up") }
        }
    }

    private mutating func restart() async throws {
        try await world.restart()
        for subscriber in subscribers {
            await subscriber.waitUntilEnded()
            // A payload cut short by the shutdown is an error the client answers by resubscribing.
            subscriber.progress.withLock { $0.errors = [] }
            try await subscriber.start(world)
        }
    }

    /// Reads the phones of some contacts as a writer would before editing them.
    private mutating func refreshReads() async throws {
        let result = try await world.run(
            "query($ids: [ID!]) { contacts(first: 1000, filter: {ids: $ids}) { nodes { id revision phoneNumbers { identifier label value } } } }",
            ["ids": .array(contactIds.suffix(50).map(JSONValue.string))])
        for node in result["data"]?["contacts"]?["nodes"]?.arrayValue ?? [] {
            guard let id = node["id"]?.stringValue, let revision = node["revision"]?.stringValue else { continue }
            reads[id] = (revision, node["phoneNumbers"]?.arrayValue ?? [])
        }
    }
}
