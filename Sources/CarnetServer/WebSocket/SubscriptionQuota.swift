import Synchronization

/// Subscriptions open at once per principal, across all its sockets and tokens.
///
/// Each subscription has a place in every commit's fan-out of its book: a payload built and written per commit. A
/// socket holds at most ``ServerConfiguration/maxOperationsPerSocket``, but a principal may open any number of
/// sockets; an outside tester's 10,000 subscriptions of one principal made each small save cost the server seconds
/// of work, and other clients waited for it.
final class SubscriptionQuota: Sendable {
    let limit: Int
    private let open = Mutex<[String: Int]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// A place for one more subscription of the principal, held until the lease goes; `nil` at the limit.
    func acquire(_ principal: String) -> Lease? {
        let granted = open.withLock { open in
            let count = open[principal, default: 0]
            guard count < limit else { return false }
            open[principal] = count + 1
            return true
        }
        return granted ? Lease(quota: self, principal: principal) : nil
    }

    fileprivate func release(_ principal: String) {
        open.withLock { open in
            let count = open[principal, default: 1] - 1
            open[principal] = count > 0 ? count : nil
        }
    }

    /// One subscription's place, given back by ``release()`` or when the last reference goes, once.
    final class Lease: Sendable {
        private let quota: SubscriptionQuota
        private let principal: String
        private let released = Atomic(false)

        fileprivate init(quota: SubscriptionQuota, principal: String) {
            self.quota = quota
            self.principal = principal
        }

        func release() {
            guard !released.exchange(true, ordering: .relaxed) else { return }
            quota.release(principal)
        }

        deinit { release() }
    }
}
