import CarnetStore
import Foundation
import PostgresNIO

/// Tells a book's subscribers in this instance about commits: this instance's right after they commit, other
/// instances' by looking at the book's newest revision while anyone listens (every
/// ``StoreConfiguration/externalChangePollInterval``). One per book per instance, shared by its stores.
actor PostgresChangeNotifier {
    private var subscribers: [UUID: ChangeMailbox] = [:]
    private var lastSeq: Int64 = 0
    private var poller: Task<Void, Never>?
    private var store: PostgresStore?

    func attach(_ store: PostgresStore) {
        if self.store == nil { self.store = store }
    }

    func subscribe(_ id: UUID, _ mailbox: ChangeMailbox) async {
        guard let store else { return mailbox.finish() }
        if subscribers.isEmpty {
            lastSeq = (try? await Self.newestSeq(store)) ?? 0
            let interval = store.configuration.externalChangePollInterval
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
        store = nil
        for mailbox in subscribers.values { mailbox.finish() }
        subscribers = [:]
        poller?.cancel()
        poller = nil
    }

    /// Looks for commits newer than the last one announced and announces them.
    func check() async {
        guard let store, !subscribers.isEmpty else { return }
        let since = lastSeq
        let change: StoreChange? = try? await store.database.read { connection in
            guard
                let (newest, position) = try await connection.rows(
                    "SELECT last_seq, last_position FROM book_store WHERE book_id = \(store.bookID)",
                    logger: store.logger
                ).decode((Int64, Int64).self).array().first, newest > since
            else { return nil }
            let authors = try await connection.rows(
                """
                SELECT author FROM save_transaction
                WHERE book_id = \(store.bookID) AND seq > \(since) AND seq <= \(newest) ORDER BY seq
                """, logger: store.logger
            ).decode(String?.self).array()
            var seen = Set<String?>()
            let token = HistoryToken(storeID: store.storeID, position: position).encoded
            return StoreChange(token: token, authors: authors.filter { seen.insert($0).inserted }, revision: newest)
        }
        guard let change, change.revision > lastSeq else { return }
        lastSeq = change.revision
        guard !change.authors.isEmpty else { return }
        for mailbox in subscribers.values { mailbox.post(change) }
    }

    private static func newestSeq(_ store: PostgresStore) async throws -> Int64 {
        try await store.database.read { connection in
            try await connection.rows(
                "SELECT last_seq FROM book_store WHERE book_id = \(store.bookID)", logger: store.logger
            ).decode(Int64.self).array().first ?? 0
        }
    }
}

extension PostgresStore {
    /// Yields after each commit to the book, this instance's or another's: the new history token and the commits'
    /// authors, folded when the subscriber reads slowly, none dropped.
    public func changes() async -> StoreChanges {
        let mailbox = ChangeMailbox()
        let id = UUID()
        let notifier = self.notifier
        let subscription = StoreChanges.Subscription { Task { await notifier.unsubscribe(id) } }
        await notifier.subscribe(id, mailbox)
        return StoreChanges(mailbox: mailbox, subscription: subscription)
    }
}
