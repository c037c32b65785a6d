import Synchronization

/// Bytes of large values (labeled values, images) that one request may read across its store reads.
///
/// A response is bounded as it is written, but a page is read whole before it is written: a page of 200 contacts
/// of 1.7 MB each (a large image, vCard properties) read 340 MB for a response that stopped at 64 MiB (an outside
/// tester's find). The caller binds an allowance to its task (``current``) and the backends' page readers charge
/// what they read against it, so a read past it stops there with `MAX_RESPONSE_BYTES_EXCEEDED`.
public final class ReadAllowance: Sendable {
    /// The allowance of the current task, if its caller set one.
    @TaskLocal public static var current: ReadAllowance?

    public let limit: Int
    private let spent = Atomic<Int>(0)

    public init(limit: Int) {
        self.limit = limit
    }

    /// Counts `bytes` read. - Throws: ``StoreError/Code/responseTooLarge`` once past the limit.
    package func charge(_ bytes: Int) throws(StoreError) {
        let total = spent.add(bytes, ordering: .relaxed).newValue
        guard total > limit else { return }
        throw StoreError(
            .responseTooLarge,
            "The read reached its limit of \(limit) bytes of values; ask for smaller pages or fewer large fields (images, vCard properties)."
        )
    }
}
