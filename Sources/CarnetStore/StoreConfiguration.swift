import Foundation

/// Settings of a ``CarnetStore``. Every field has a documented default.
public struct StoreConfiguration: Sendable {
    /// How long change history is kept. Tokens older than this fetch a full resync (drop everything).
    /// Default: 30 days.
    public var historyRetention: TimeInterval = 30 * 24 * 3600

    /// ``historyRetention`` in whole seconds, as clients are told it: from 0 to `Int32.max` (a GraphQL `Int`), and 0
    /// for a value that is not a number.
    public var historyRetentionSeconds: Int {
        guard historyRetention.isFinite else { return historyRetention > 0 ? Int(Int32.max) : 0 }
        return Int(min(max(historyRetention, 0), Double(Int32.max)).rounded(.down))
    }

    /// How long a write waits for another process's write to finish before failing. Default: 5 s.
    public var busyTimeout: TimeInterval = 5

    /// How often the store looks for commits made by other processes. Default: 0.25 s.
    public var externalChangePollInterval: TimeInterval = 0.25

    /// Bytes of the database file each connection maps into memory, so index lookups read the OS page cache
    /// without a system call. Default: 1 GiB (address space, not resident memory). 0 turns mapping off.
    public var memoryMapBytes: Int = 1 << 30

    /// Files smaller than this are not mapped by reading connections: for a small address book the mapping (and the
    /// unmapping at close, which interrupts every core the process runs on) costs more than the reads it saves, and
    /// a server of many books opens and closes them all the time. Checked when a connection opens. Default: 8 MiB.
    public var memoryMapMinimumFileBytes: Int = 8 << 20

    /// Each reading connection's page cache (reads mostly go through the memory map); the writer gets eight
    /// times as much, for inserts into name-ordered indexes. Default: 8 MiB.
    public var pageCacheBytes: Int = 8 << 20

    /// The most address books a principal may own. Default: 100.
    public var booksPerPrincipal: Int = 100

    /// The most contacts one address book may hold; a save past it fails with `QUOTA_EXCEEDED`. Default: 1,000,000.
    public var contactsPerBook: Int = 1_000_000

    /// Called with every SQL statement executed, arguments included: for tests and debugging only, since
    /// arguments are contact data.
    public var statementTrace: (@Sendable (String) -> Void)?

    public init() {}
}
