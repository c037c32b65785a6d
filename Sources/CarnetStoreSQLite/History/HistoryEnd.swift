import CarnetStore
import Foundation
import GRDB

/// Where a book's history ended when the book was last closed: its newest position and the mark of the commit
/// there (``HistoryToken/mark(revision:timestamp:)``), kept in the catalog, outside the book's file.
///
/// A book file put back from an earlier copy of itself (a file-system snapshot, with the servers stopped, as the
/// README says) ends before that point, or has another commit there. Its history then goes on apart from what
/// replicas saw, and a replica behind the copy that applied its own later saves at once would keep them, though the
/// restore lost them, with no word (an outside tester's find): such a book gets a new store identifier when it
/// opens, so every replica syncs in full (`OTHER_STORE`), as after restoring a `carnet backup` copy.
struct HistoryEnd: Sendable, Hashable {
    var position: Int64
    var mark: UInt64?

    /// The catalog's form: `position` or `position:mark` (hex).
    var stored: String { mark.map { "\(position):\(String($0, radix: 16))" } ?? String(position) }

    init(position: Int64, mark: UInt64?) {
        self.position = position
        self.mark = mark
    }

    init?(stored: String) {
        let parts = stored.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let position = Int64(parts[0]) else { return nil }
        self.position = position
        if parts.count == 2 {
            guard let mark = UInt64(parts[1], radix: 16) else { return nil }
            self.mark = mark
        }
    }
}

extension SQLiteStore {
    /// Where the history ends now. Both reads here go through the point connections, as a request's reads do: the
    /// pool's writer and readers (and their descriptors and page caches) open only for a book that is written.
    func historyEnd() async throws -> HistoryEnd {
        try await read { db in
            let position = try HistoryStore.currentPosition(db)
            return HistoryEnd(position: position, mark: try HistoryStore.mark(db, at: position))
        }
    }

    /// Whether the history still holds `end`: it reaches its position, with the same commit there (where the store
    /// can tell; a mark compaction did not keep is taken on trust).
    func holdsHistory(through end: HistoryEnd) async throws -> Bool {
        try await read { db in
            guard try HistoryStore.currentPosition(db) >= end.position else { return false }
            guard let mark = end.mark, let stored = try HistoryStore.mark(db, at: end.position) else { return true }
            return stored == mark
        }
    }

    /// Gives the store a new identifier, as a `carnet backup` copy has: every token of the old one starts a full
    /// sync. The store must be opened again to use it.
    func renewIdentity() async throws {
        try await databaseWrite { db in
            try db.execute(
                sql: "UPDATE storeInfo SET value = ? WHERE key = 'storeId'", arguments: [UUID().uuidString])
        }
    }
}
