import Foundation

/// Tells a book's subscribers about commits: this process's right after they commit (``check()``), other
/// processes' or instances' by polling while anyone listens (every `interval`). The backend supplies how to read
/// its newest revision and the commits after a revision; the fan-out is the same everywhere.
package actor ChangeNotifier {
    /// The newest commit's revision.
    package typealias NewestRevision = @Sendable () async throws -> Int64
    /// The commits after a revision folded into one change (the new token, every author once, the newest
    /// revision); `nil` when there is none.
    package typealias ChangesSince = @Sendable (Int64) async throws -> StoreChange?

    private var subscribers: [UUID: ChangeMailbox] = [:]
    private var lastSeq: Int64 = 0
    private var poller: Task<Void, Never>?
    /// The first subscriber's read of the newest revision, while it runs.
    private var starting: Task<Int64, Never>?
    private var source: (newest: NewestRevision, since: ChangesSince, interval: TimeInterval)?

    package init(interval: TimeInterval, newestRevision: @escaping NewestRevision, changesSince: @escaping ChangesSince)
    {
        source = (newestRevision, changesSince, interval)
    }

    /// A new subscription: every commit after this returns is announced.
    package func changes() async -> StoreChanges {
        let mailbox = ChangeMailbox()
        let id = UUID()
        let subscription = StoreChanges.Subscription { Task { await self.unsubscribe(id) } }
        await subscribe(id, mailbox)
        return StoreChanges(mailbox: mailbox, subscription: subscription)
    }

    func subscribe(_ id: UUID, _ mailbox: ChangeMailbox) async {
        guard let source else { return mailbox.finish() }
        if subscribers.isEmpty {
            // The actor is reentrant across this read: whoever subscribes meanwhile waits for the same read, so
            // where the book stood is set once and no subscriber starts a second poller.
            let read = starting ?? Task { (try? await source.newest()) ?? 0 }
            starting = read
            let newest = await read.value
            if starting == read {
                lastSeq = newest
                starting = nil
            }
        }
        guard self.source != nil else { return mailbox.finish() }
        if poller == nil {
            let interval = source.interval
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
        // A subscriber still reading where the book stands needs the poller.
        if subscribers.isEmpty, starting == nil {
            poller?.cancel()
            poller = nil
        }
    }

    /// Ends every subscription, for a store that closes.
    package func finishAll() {
        source = nil
        for mailbox in subscribers.values { mailbox.finish() }
        subscribers = [:]
        poller?.cancel()
        poller = nil
    }

    /// Looks for commits newer than the last one announced and announces them. `noticedAt` defaults to the
    /// caller's now, before the hop onto the actor: right after the commit when a save calls it.
    package func check(noticedAt: ContinuousClock.Instant = .now) async {
        guard let source, !subscribers.isEmpty else { return }
        guard var change = try? await source.since(lastSeq), change.revision > lastSeq else { return }
        change.noticedAt = noticedAt
        lastSeq = change.revision
        // Containers added without history events move the revision but are not store changes to announce.
        guard !change.authors.isEmpty else { return }
        for mailbox in subscribers.values { mailbox.post(change) }
    }
}
