import Synchronization

/// The commits announced to one subscriber of ``CarnetStore/changes()``: an async sequence that never drops one.
///
/// A subscriber that reads slowly gets the commits it has not read yet folded into one element (the newest token
/// and revision, the authors of every commit covered), instead of a buffer that overflows and forgets the oldest.
/// The sequence ends when the store closes. Iterate it from one task.
public struct StoreChanges: AsyncSequence, Sendable {
    public typealias Element = StoreChange

    package let mailbox: ChangeMailbox
    package let subscription: Subscription

    package init(mailbox: ChangeMailbox, subscription: Subscription) {
        self.mailbox = mailbox
        self.subscription = subscription
    }

    /// Unsubscribes from the notifier when the last copy of the sequence goes away.
    package final class Subscription: Sendable {
        let onEnd: @Sendable () -> Void
        package init(onEnd: @escaping @Sendable () -> Void) { self.onEnd = onEnd }
        deinit { onEnd() }
    }

    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        let mailbox: ChangeMailbox
        let subscription: Subscription

        /// The commits since the last call, folded into one; `nil` once the store closed or the task is cancelled.
        public func next() async -> StoreChange? { await mailbox.take() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(mailbox: mailbox, subscription: subscription) }
}

/// One subscriber's pending change and, while it waits, its continuation.
package final class ChangeMailbox: Sendable {
    private struct State {
        var pending: StoreChange?
        /// The pending change's authors, so folding in a commit costs that commit's authors, not all those pending
        /// (a paused reader and commits by ever new authors would make it quadratic).
        var pendingAuthors: Set<String?> = []
        var waiter: CheckedContinuation<StoreChange?, Never>?
        var finished = false

        /// This commit (or several) folded into the pending change: the later token and revision, every author once.
        mutating func fold(_ change: StoreChange) {
            // Taken out, so the authors array has one owner and appending does not copy it.
            guard var merged = pending.take() else {
                pending = change
                pendingAuthors = Set(change.authors)
                return
            }
            for author in change.authors where pendingAuthors.insert(author).inserted { merged.authors.append(author) }
            merged.token = change.token
            merged.revision = max(merged.revision, change.revision)
            // The earliest commit still waiting is the one whose latency a late delivery shows.
            if let noticed = change.noticedAt, merged.noticedAt.map({ noticed < $0 }) ?? true {
                merged.noticedAt = noticed
            }
            pending = merged
        }
    }

    private let state = Mutex(State())

    package init() {}

    /// Adds a commit (or several) to what the subscriber has not read.
    package func post(_ change: StoreChange) {
        let waiter = state.withLock { state -> CheckedContinuation<StoreChange?, Never>? in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.fold(change)
            return nil
        }
        waiter?.resume(returning: change)
    }

    package func finish() {
        let waiter = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    package func take() async -> StoreChange? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<StoreChange?, Never>) in
                let ready = state.withLock { state -> StoreChange?? in
                    if let pending = state.pending.take() {
                        state.pendingAuthors = []
                        return .some(pending)
                    }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: nil)
        }
    }
}
