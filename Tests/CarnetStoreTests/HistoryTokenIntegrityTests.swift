import CarnetStoreTestSupport
import CarnetTestSupport
import Foundation
import Testing

@testable import CarnetStore

/// A damaged token must start a full sync (MALFORMED_TOKEN), never continue from a wrong place: an edited cursor in a
/// full sync's token would skip records, and an edited position would skip events, both silently.
@Suite("History token integrity")
struct HistoryTokenIntegrityTests {
    @Test("Every one-character edit of a token is refused")
    func editsAreRefused() throws {
        let seed = SeededRandom.seed(from: "CARNET_TEST_SEED")
        var random = SeededRandom(seed: seed)
        let alphabet = Array("0123456789|-abcdef")
        for _ in 0..<50 {
            let snapshot =
                random.chance(50)
                ? HistoryToken.Snapshot(
                    phase: random.pick([.contacts, .groups, .members])!, afterFirst: Int64(random.int(-1...99_999)),
                    afterSecond: Int64(random.int(-1...99_999))) : nil
            let mark =
                random.chance(70) ? HistoryToken.mark(revision: Int64(random.int(1...9999)), timestamp: 1e9) : nil
            let token = HistoryToken(
                storeID: UUID().uuidString, position: Int64(random.int(0...1_000_000)), mark: mark, snapshot: snapshot)
            let text = Array(try #require(Base64URL.decodeText(token.encoded)))
            #expect(HistoryToken(encoded: token.encoded) == token, "seed \(seed)")
            for index in text.indices {
                for replacement in alphabet where replacement != text[index] {
                    var damaged = text
                    damaged[index] = replacement
                    let encoded = Base64URL.encode(String(damaged).utf8)
                    #expect(HistoryToken(encoded: encoded) == nil, "seed \(seed): \(String(damaged)) was accepted")
                }
            }
        }
    }

    @Test("Tokens written before checksums still continue a replica")
    func versionOneIsRead() {
        let incremental = Base64URL.encode("1|store-1|42".utf8)
        #expect(HistoryToken(encoded: incremental) == HistoryToken(storeID: "store-1", position: 42))
        let snapshot = Base64URL.encode("1|store-1|42|1|7|-1".utf8)
        #expect(
            HistoryToken(encoded: snapshot)
                == HistoryToken(
                    storeID: "store-1", position: 42, snapshot: .init(phase: .groups, afterFirst: 7, afterSecond: -1)))
    }

    @Test("Tokens written before marks still continue a replica, taken on trust")
    func versionTwoIsRead() throws {
        let written = HistoryToken(storeID: "store-1", position: 42)
        let text = try #require(Base64URL.decodeText(written.encoded))
        #expect(text.hasPrefix("3|store-1|42||"))
        // Version 2 is version 3 without the mark field, with its own checksum.
        var fields = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        fields[0] = "2"
        fields.remove(at: 3)
        fields.removeLast()
        let body = fields.joined(separator: "|")
        var hash = FNV1a()
        hash.combine(body.utf8)
        let digits = String(hash.value, radix: 16)
        let two = Base64URL.encode((body + "|" + String(repeating: "0", count: 16 - digits.count) + digits).utf8)
        let read = try #require(HistoryToken(encoded: two))
        #expect(read == written)
        #expect(read.mark == nil)
        #expect(read.agrees(withStoredMark: 7))
    }

    @Test("A mark tells commits apart by revision and by time")
    func marks() {
        let mark = HistoryToken.mark(revision: 5, timestamp: 1_700_000_000.25)
        #expect(mark == HistoryToken.mark(revision: 5, timestamp: 1_700_000_000.25))
        #expect(mark != HistoryToken.mark(revision: 6, timestamp: 1_700_000_000.25))
        #expect(mark != HistoryToken.mark(revision: 5, timestamp: 1_700_000_000.250001))
        let token = HistoryToken(storeID: "s", position: 9, mark: mark)
        #expect(HistoryToken(encoded: token.encoded)?.mark == mark)
        #expect(token.agrees(withStoredMark: mark))
        #expect(!token.agrees(withStoredMark: mark &+ 1))
        #expect(token.agrees(withStoredMark: nil))
    }

    @Test("A damaged full-sync token starts the full sync over", arguments: StoreKind.available)
    func damagedSnapshotToken(kind: StoreKind) async throws {
        let store = try await StoreFixture(kind).store
        try await store.add((0..<5).map { Make.person("C\($0)", "Damaged") })
        func fetch(_ token: String?) async throws -> ChangeHistoryPage {
            try await store.changeHistory(
                ChangeHistoryFetchRequest(startingToken: token, contactKeys: [.givenName], limit: 2))
        }
        let first = try await fetch(nil)
        #expect(first.hasMore)
        let token = try #require(HistoryToken(encoded: first.token))
        let cursor = try #require(token.snapshot)
        // The cursor moved on by two records, as a one-digit edit can make it.
        let text = try #require(Base64URL.decodeText(first.token))
        let edited = text.replacingOccurrences(
            of: "|\(cursor.afterFirst)|", with: "|\(cursor.afterFirst + 2)|", options: [], range: nil)
        #expect(edited != text)
        let damaged = try await fetch(Base64URL.encode(edited.utf8))
        #expect(damaged.events.first?.kind == .dropEverything)
        #expect(damaged.events.first?.dropReason == .malformedToken)
        let continued = try await fetch(first.token)
        #expect(continued.events.first?.kind != .dropEverything)
    }
}
