import CarnetStore
import CarnetStoreSQLite
import GRDB

/// Change history: a page of 10,000 events from an incremental token, the first 10,000 events of a full sync,
/// and streaming the whole history in pages of 1,000 while watching memory.
struct HistoryBenchmarks {
    let store: SQLiteStore
    let comparison: Comparison
    let info: DatasetInfo
    var iterations = 20

    static let pageSize = 10_000

    private func request(_ token: String?, limit: Int) -> ChangeHistoryFetchRequest {
        ChangeHistoryFetchRequest(
            startingToken: token, includeGroupChanges: true, contactKeys: StoreQueries.fetchKeys, limit: limit)
    }

    func run() async throws -> [OperationResult] {
        let store = self.store
        // Tokens with at least 10,000 import events after them, so every fetch returns a full page.
        let marks = [DatasetInfo.TokenMark(eventsBefore: 0, token: info.initialToken)] + info.tokens
        // (A data set smaller than that has fewer: every fetch then starts at the first token.)
        let full = marks.filter { info.importEvents - $0.eventsBefore >= Self.pageSize }
        let eligible = full.isEmpty ? [marks[0]] : full
        let step = max(1, eligible.count / iterations)
        let chosen = stride(from: 0, to: eligible.count, by: step).map { eligible[$0] }
        let positionBefore = info.positionBefore
        let firstCount = try await store.changeHistory(request(chosen[0].token, limit: Self.pageSize)).events.count
        var results: [OperationResult] = []
        let limit = Self.pageSize
        results.append(
            try await comparison.run(
                "History fetch, 10,000 events", inputs: chosen,
                note: "incremental token, \(firstCount) events per fetch, 8 contact keys; \(iterations) runs",
                iterations: iterations, check: full.count > 0,
                carnet: { mark in try await store.changeHistory(request(mark.token, limit: limit)).events.count },
                sql: { db, mark in
                    try RawHistory.events(db, after: positionBefore + Int64(mark.eventsBefore), limit: limit)
                }))
        let fullSyncCount = try await store.changeHistory(request(nil, limit: limit)).events.count
        results.append(
            try await comparison.run(
                "Full-sync page, 10,000 events", inputs: [0],
                note: "no token: drop everything + \(fullSyncCount - 1) add events; \(iterations) runs",
                // The SQL reads contacts only: the same events when they fill the page.
                iterations: iterations, check: info.size >= Self.pageSize,
                carnet: { _ in try await store.changeHistory(request(nil, limit: limit)).events.count },
                sql: { db, _ in try RawHistory.snapshot(db, limit: limit - 1) }))
        // A save runs this, once a minute, before it returns (SQLiteStore.execute → compactIfDue).
        let compaction = try await Stopwatch.measure(iterations: 10, warmup: 1) { _ in
            _ = try await store.compactHistory()
        }
        results.append(
            OperationResult(
                name: "History compaction (nothing to delete)", carnet: compaction.stats,
                note: "`compactHistory()`: the first save after each minute runs it before returning; 10 runs"))
        return results
    }

    /// Pages through the whole history, sampling memory after every page.
    func stream(_ name: String, from token: String?) async throws -> StreamResult {
        log("  \(name)")
        Memory.trim()
        let heapBefore = Memory.anonymousBytes
        let fileBefore = Memory.fileBytes
        var heap: [Int] = []
        var file: [Int] = []
        var token = token
        var pages = 0
        var events = 0
        let start = Stopwatch.clock.now
        while true {
            let page = try await store.changeHistory(request(token, limit: 1_000))
            pages += 1
            events += page.events.count
            token = page.token
            heap.append(Memory.anonymousBytes)
            file.append(Memory.fileBytes)
            if !page.hasMore { break }
        }
        let seconds = (Stopwatch.clock.now - start).seconds
        let progress = (1...10).map { tenth in heap[max(0, heap.count * tenth / 10 - 1)] }
        return StreamResult(
            name: name, pages: pages, events: events, seconds: seconds, heapBefore: heapBefore, heapProgress: progress,
            heapPeak: heap.max() ?? 0, fileBefore: fileBefore, filePeak: file.max() ?? 0)
    }
}

/// The history reads written by hand: the events after a position with their contacts' 8 keys.
enum RawHistory {
    struct Event {
        var position: Int64
        var kind: Int
        var recordId: String
        var otherId: String?
        var author: String?
    }

    static func events(_ db: Database, after position: Int64, limit: Int) throws -> Int {
        var events: [Event] = []
        events.reserveCapacity(limit)
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT e.position, e.kind, e.recordId, e.otherId, t.author
                    FROM changeEvent e JOIN saveTransaction t ON t.seq = e.seq
                    WHERE e.position > ? ORDER BY e.position LIMIT ?
                    """), arguments: [position, limit])
        while let row = try rows.next() {
            events.append(Event(position: row[0], kind: row[1], recordId: row[2], otherId: row[3], author: row[4]))
        }
        guard let last = events.last?.position else { return 0 }
        _ = try attach(
            db,
            from: """
                FROM changeEvent e JOIN contact c ON c.id = e.recordId
                WHERE e.position > ?1 AND e.position <= ?2 AND e.kind IN (1, 2)
                """, arguments: [position, last])
        return events.count
    }

    static func snapshot(_ db: Database, limit: Int) throws -> Int {
        let last =
            try Int64.fetchOne(
                db, sql: "SELECT max(rowid) FROM (SELECT rowid FROM contact ORDER BY rowid LIMIT ?)", arguments: [limit]
            ) ?? 0
        // Plus the drop-everything event that starts a full sync.
        return try attach(db, from: "FROM contact c WHERE c.rowid <= ?1", arguments: [last]) + 1
    }

    /// Reads the 8 keys of the contacts a FROM ... WHERE clause selects (as `c`), in two statements.
    private static func attach(_ db: Database, from clause: String, arguments: StatementArguments) throws -> Int {
        var contacts: [Int64: RawQueries.FetchedContact] = [:]
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT c.rowid, c.id, c.revision, c.givenName, c.familyName, c.organizationName, c.jobTitle,
                        c.birthday, (SELECT id FROM container WHERE rowid = c.containerRowid) \(clause)
                    """), arguments: arguments)
        while let row = try rows.next() {
            contacts[row[0]] = RawQueries.FetchedContact(
                id: row[1], revision: row[2], strings: [row[3], row[4], row[5], row[6], row[8]], birthday: row[7])
        }
        let values = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT v.contactRowid, v.kind, v.id, v.label, v.value
                    \(clause.replacingOccurrences(of: "WHERE", with: "JOIN labeledValue v ON v.contactRowid = c.rowid AND v.kind IN (1, 2, 3) WHERE"))
                    """), arguments: arguments)
        while let row = try values.next() {
            contacts[row[0]]?.values.append((row[1], row[2], row[3], row[4]))
        }
        return contacts.count
    }
}
