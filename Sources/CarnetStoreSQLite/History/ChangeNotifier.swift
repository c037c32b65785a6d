import CarnetStore
import Foundation
import GRDB

/// Tells subscribers about commits: this process's right after they commit, other processes' (which SQLite
/// cannot signal) by polling the newest revision while anyone listens.
actor ChangeNotifier {
    private var subscribers: [UUID: ChangeMailbox] = [:]
    private var lastSeq: Int64 = 0
    private var poller: Task<Void, Never>?
    private var context: (database: StoreDatabase, storeID: String, interval: TimeInterval)?

    init(database: StoreDatabase, storeID: String, interval: TimeInterval) {
        context = (database, storeID, interval)
    }

    func subscribe(_ id: UUID, _ mailbox: ChangeMailbox) async {
        guard let context else { return mailbox.finish() }
        if subscribers.isEmpty {
            lastSeq = (try? await context.database.writer().read(Self.newestSeq)) ?? 0
            let interval = context.interval
            poller = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(interval))
                    await self?.check()
                }
            }
        }
        subscribers[id] = mailbox
    }

    func unsubscribe(_ id: UUID) {
        subscribers[id] = nil
        if subscribers.isEmpty {
            poller?.cancel()
            poller = nil
        }
    }

    func finishAll() {
        context = nil
        for mailbox in subscribers.values { mailbox.finish() }
        subscribers = [:]
        poller?.cancel()
        poller = nil
    }

    /// Looks for commits newer than the last one announced and announces them.
    func check() async {
        guard let context, !subscribers.isEmpty else { return }
        let since = lastSeq
        let storeID = context.storeID
        let change: StoreChange? = try? await context.database.writer().read { db in
            let newest = try Self.newestSeq(db)
            guard newest > since else { return nil }
            let authors = try Row.fetchAll(
                db,
                sql: """
                    SELECT author FROM saveTransaction WHERE seq > ? AND seq <= ?
                    AND EXISTS (SELECT 1 FROM changeEvent e WHERE e.seq = saveTransaction.seq) ORDER BY seq
                    """, arguments: [since, newest]
            ).map { $0[0] as String? }
            var seen = Set<String?>()
            let token = HistoryToken(storeID: storeID, position: try HistoryStore.currentPosition(db)).encoded
            return StoreChange(token: token, authors: authors.filter { seen.insert($0).inserted }, revision: newest)
        }
        guard let change, change.revision > lastSeq else { return }
        lastSeq = change.revision
        // Containers added without history events move the revision but are not store changes to announce.
        guard !change.authors.isEmpty else { return }
        for mailbox in subscribers.values { mailbox.post(change) }
    }

    private static func newestSeq(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT max(seq) FROM saveTransaction") ?? 0
    }
}

extension SQLiteStore {
    /// Yields after each commit, this process's or another's on the same file (seen within
    /// ``StoreConfiguration/externalChangePollInterval``): the new history token and the commits' authors.
    /// Commits the subscriber has not read yet arrive folded into one element, which names every author; none
    /// is dropped. The external-change callback of the Contacts framework. Every commit after this call returns
    /// is announced.
    public func changes() async -> StoreChanges {
        let mailbox = ChangeMailbox()
        let id = UUID()
        let notifier = self.notifier
        let subscription = StoreChanges.Subscription { Task { await notifier.unsubscribe(id) } }
        await notifier.subscribe(id, mailbox)
        return StoreChanges(mailbox: mailbox, subscription: subscription)
    }
}
