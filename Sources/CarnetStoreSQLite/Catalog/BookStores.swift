import CarnetStore
import Foundation

/// The open stores of address books: each book's database is opened when first used and kept in a bounded pool,
/// least recently used idle books closed first, so thousands of books stay within the process's file
/// descriptors and memory.
///
/// The pool is bounded by a count of books and by file descriptors: a book opened for reads holds one read-only
/// connection (three descriptors), one that was written holds its writer and readers as well, and the budget is
/// what the process may open less a reserve for connections (``FileDescriptorBudget``). The count stays modest
/// because every open book makes the next open slower (SQLite's unix VFS walks a list of all open files on each
/// open) and costs memory, while a miss costs about a millisecond.
///
/// A store handed out by ``acquire(_:)`` stays open until ``release(_:)``: requests hold one for their duration,
/// subscriptions for their lifetime. The pool may exceed its bounds while every open book is in use.
public actor BookStores: AddressBookStores {
    /// The data folder that books' file names are relative to.
    public nonisolated let directory: String
    /// The book kept in `carnet.sqlite`, the single store of earlier versions (the admin's default book); every
    /// other book is `books/<id>.sqlite`.
    public nonisolated let legacyBookID: String?
    public nonisolated let configuration: StoreConfiguration
    /// How many books stay open when idle, at most.
    public nonisolated let capacity: Int
    /// How many file descriptors open books may hold when idle, at most.
    public nonisolated let descriptorBudget: Int
    /// Which books' files were made, so that a lost file fails to open rather than coming back empty; `nil` for a
    /// pool without a catalog (tools and tests), which makes any missing file.
    nonisolated let fileLedger: (any BookFileLedger)?

    struct Entry {
        var store: SQLiteStore
        var leases: Int
        /// The descriptors counted for this book in ``descriptors``, updated when it is given back.
        var descriptors: Int
        /// When it was last given back; matches its place in ``idleOrder`` while idle.
        var idleSince: UInt64?
    }

    private var open: [String: Entry] = [:]
    /// The idle books in the order they were given back, oldest first. A book taken again or closed leaves a
    /// stale entry, skipped when reached (its `idleSince` no longer matches), so eviction and release are O(1).
    private var idleOrder: [(clock: UInt64, bookID: String)] = []
    private var idleHead = 0
    private var idleCount = 0
    /// The descriptors the open books hold, as last counted.
    private var descriptors = 0
    /// Books being opened, off the actor: opening takes milliseconds, and one book's open must not hold up
    /// requests to other books. Everyone asking for the book meanwhile waits for the same task.
    var opening: [String: Task<SQLiteStore, any Error>] = [:]
    /// Books evicted and still closing, off the actor; each removes itself when its close is done.
    var closing: [String: Closing] = [:]
    /// Set by ``closeAll()``: nothing opens afterwards.
    private var isClosed = false
    private var clock: UInt64 = 0
    /// Books deleted by this process: never opened again (identifiers are never reused), so a request that found
    /// one in the catalog just before its deletion cannot create its file anew and write where no one will look.
    var deleted: Set<String> = []
    /// Deleted books still held by requests, closed once the last gives its lease back (``delete(_:)``).
    var retiring: [String: Retiring] = [:]

    struct Closing {
        var stamp: UInt64
        var task: Task<Void, Never>
    }

    struct Retiring {
        var leases: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    /// - Parameters:
    ///   - capacity: the most books kept open when idle; `nil` for ``defaultCapacity``.
    ///   - descriptorBudget: the most descriptors open books keep when idle; `nil` for what the process may open
    ///     less a reserve (``FileDescriptorBudget/forBooks``).
    public init(
        directory: String, configuration: StoreConfiguration = StoreConfiguration(), capacity: Int? = nil,
        descriptorBudget: Int? = nil, legacyBookID: String? = nil
    ) {
        self.init(
            directory: directory, configuration: configuration, capacity: capacity, descriptorBudget: descriptorBudget,
            legacyBookID: legacyBookID, fileLedger: nil)
    }

    init(
        directory: String, configuration: StoreConfiguration, capacity: Int?, descriptorBudget: Int? = nil,
        legacyBookID: String?, fileLedger: (any BookFileLedger)?
    ) {
        self.fileLedger = fileLedger
        self.directory = directory
        self.legacyBookID = legacyBookID
        self.configuration = configuration
        self.capacity = max(1, capacity ?? Self.defaultCapacity)
        self.descriptorBudget = max(1, descriptorBudget ?? FileDescriptorBudget.forBooks)
    }

    /// The books kept open when idle unless told otherwise: random reads over 10,000 books ran as fast with 2,048
    /// open as with 5,300, with first requests to closed books faster and a fraction of the memory (BENCHMARKS.md).
    public static let defaultCapacity = 2_048

    /// The book's database path.
    public nonisolated func path(of book: AddressBook) -> String {
        (directory as NSString).appendingPathComponent(
            book.id == legacyBookID ? DataFolder.adminBookFileName : Self.fileName(of: book.id))
    }

    /// The folder of the books' files (every book's but the admin's default book), in the data folder.
    static let folderName = "books"

    /// A book's file, relative to the data folder: its identifier names it, and identifiers are never reused.
    static func fileName(of bookID: String) -> String { "\(folderName)/\(bookID).sqlite" }

    /// How many books are open now.
    public var openCount: Int { open.count }

    /// The books open now.
    var openBookIDs: Set<String> { Set(open.keys) }

    /// The pool's bookkeeping, for tests that check it against the stores.
    struct Bookkeeping {
        var leases: [String: Int]
        var counted: [String: Int]
        var actual: [String: Int]
        var idleSince: [String: UInt64]
        var descriptors: Int
        var idleCount: Int
        var queued: Int
    }

    var bookkeeping: Bookkeeping {
        Bookkeeping(
            leases: open.mapValues(\.leases), counted: open.mapValues(\.descriptors),
            actual: open.mapValues(\.store.fileDescriptors), idleSince: open.compactMapValues(\.idleSince),
            descriptors: descriptors, idleCount: idleCount, queued: idleOrder.count - idleHead)
    }

    /// The book's store, opened (and created) if needed; pair with ``release(_:)``.
    public func acquire(_ book: AddressBook) async throws -> any ContactStore { try await acquireStore(book) }

    /// ``acquire(_:)`` with the store's own type, for this backend's tools and tests.
    public func acquireStore(_ book: AddressBook) async throws -> SQLiteStore {
        while true {
            if let store = lease(book.id) { return store }
            guard !deleted.contains(book.id) else { throw StoreError.noSuchBook(book.id) }
            guard !isClosed else { throw StoreError.storeClosed }
            // A book evicted a moment ago opens again once its close has finished: a read-only open beside the
            // close found its WAL and shared-memory files half removed ("unable to open database file").
            if let closing = closing[book.id] {
                await closing.task.value
                continue
            }
            let task = opening[book.id] ?? startOpening(book)
            let store: SQLiteStore
            do {
                store = try await task.value
            } catch {
                if opening[book.id] == task { opening[book.id] = nil }
                throw StoreError.mapped(error)
            }
            // The first waiter back files the store; the others find it open.
            if opening[book.id] == task, open[book.id] == nil {
                opening[book.id] = nil
                let count = store.fileDescriptors
                open[book.id] = Entry(store: store, leases: 0, descriptors: count)
                descriptors += count
            }
            if let leased = lease(book.id) {
                evictIdle()
                return leased
            }
            // Evicted (or deleted, or the pool closed) before this waiter resumed: ask again.
        }
    }

    /// Opens the book off the actor: opening takes a millisecond or more, and must not hold up other books.
    private func startOpening(_ book: AddressBook) -> Task<SQLiteStore, any Error> {
        let (path, configuration, ledger, bookID) = (path(of: book), configuration, fileLedger, book.id)
        let task = Task.detached {
            // Only a book without a file asks the catalog: an open of a book that has one costs no more.
            let making = !BookFile.hasContent(path)
            if making, let ledger, try await ledger.fileWasMade(bookID: bookID) {
                throw BookFile.lost(bookID, path: path)
            }
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            var store = try SQLiteStore.open(path: path, configuration: configuration)
            if !making, let ledger {
                store = try await Self.renewingIfPutBack(store, bookID: bookID, path: path, ledger: ledger)
            }
            if let ledger {
                store.database.listedCheck.withLock { $0 = { try await ledger.isListed(bookID: bookID) } }
            }
            if making, let ledger {
                do {
                    try await ledger.noteFileMade(bookID: bookID)
                } catch {
                    try? await store.close()
                    throw error
                }
            }
            return store
        }
        opening[book.id] = task
        return task
    }

    /// The store, or, when its file was put back from an earlier copy (``HistoryEnd``), the store opened again
    /// with a new identifier.
    private nonisolated static func renewingIfPutBack(
        _ store: SQLiteStore, bookID: String, path: String, ledger: any BookFileLedger
    ) async throws -> SQLiteStore {
        do {
            let end = try await ledger.historyEnd(bookID: bookID)
            store.database.notedHistoryEnd.withLock { $0 = end }
            guard let end, try await !store.holdsHistory(through: end) else { return store }
            try await store.renewIdentity()
            try await store.close()
        } catch {
            try? await store.close()
            throw error
        }
        let renewed = try SQLiteStore.open(path: path, configuration: store.configuration)
        do {
            let end = try await renewed.historyEnd()
            try await ledger.noteHistoryEnd(bookID: bookID, end)
            renewed.database.notedHistoryEnd.withLock { $0 = end }
        } catch {
            try? await renewed.close()
            throw error
        }
        return renewed
    }

    /// Notes where a book's history ends when it moved since the open, then closes it; a note that fails leaves
    /// the last one (a restore found then by its mark alone).
    private nonisolated static func close(_ store: SQLiteStore, bookID: String, ledger: (any BookFileLedger)?)
        async
    {
        if let ledger, let end = try? await store.historyEnd(),
            end != store.database.notedHistoryEnd.withLock({ $0 })
        {
            try? await ledger.noteHistoryEnd(bookID: bookID, end)
        }
        try? await store.close()
    }

    /// Takes a lease on an open book.
    private func lease(_ bookID: String) -> SQLiteStore? {
        guard var entry = open[bookID] else { return nil }
        if entry.idleSince != nil { idleCount -= 1 }
        entry.leases += 1
        entry.idleSince = nil
        open[bookID] = entry
        return entry.store
    }

    /// Gives back a store from ``acquire(_:)``.
    public func release(_ bookID: String) {
        guard var entry = open[bookID] else { return releaseRetiring(bookID) }
        entry.leases = max(0, entry.leases - 1)
        // A save found its file removed or replaced: closed once free, so that the next open tells a lost file
        // (STORAGE_FAILURE) from a deleted book, instead of reads going on from the removed file.
        if entry.leases == 0, entry.store.hasLostItsFile, let lost = remove(bookID) {
            return closeInBackground(lost.store, bookID)
        }
        if entry.leases == 0 {
            // A book held while it was written may have opened its writer: count it again.
            let count = entry.store.fileDescriptors
            descriptors += count - entry.descriptors
            entry.descriptors = count
            clock += 1
            entry.idleSince = clock
            idleCount += 1
            idleOrder.append((clock, bookID))
        }
        open[bookID] = entry
        evictIdle()
    }

    /// Runs `body` with the book's store held open.
    public func withSQLiteStore<T: Sendable>(
        _ book: AddressBook, _ body: @Sendable (SQLiteStore) async throws -> T
    ) async throws -> T {
        let store = try await acquireStore(book)
        do {
            let result = try await body(store)
            release(book.id)
            return result
        } catch {
            release(book.id)
            throw error
        }
    }

    /// Closes every open book.
    public func closeAll() async {
        isClosed = true
        let pending = Array(opening.values)
        opening.removeAll()
        let stores = open.map { (bookID: $0.key, store: $0.value.store) }
        open.removeAll()
        (idleOrder, idleHead, idleCount, descriptors) = ([], 0, 0, 0)
        for (bookID, store) in stores { await Self.close(store, bookID: bookID, ledger: fileLedger) }
        for task in pending { try? await task.value.close() }
        for evicted in Array(closing.values) { await evicted.task.value }
    }

    /// Closes a store taken out of the pool, off the actor (a close waits for reads); the book opens again once
    /// the close is done.
    private func closeInBackground(_ store: SQLiteStore, _ bookID: String) {
        clock += 1
        let (stamp, ledger) = (clock, fileLedger)
        closing[bookID] = Closing(
            stamp: stamp,
            task: Task.detached {
                await Self.close(store, bookID: bookID, ledger: ledger)
                await self.closed(bookID, stamp: stamp)
            })
    }

    /// An evicted book's close is done: it may open again.
    private func closed(_ bookID: String, stamp: UInt64) {
        if closing[bookID]?.stamp == stamp { closing[bookID] = nil }
    }

    /// Takes the book out of the pool, keeping the counts right.
    func remove(_ bookID: String) -> Entry? {
        guard let entry = open.removeValue(forKey: bookID) else { return nil }
        descriptors -= entry.descriptors
        if entry.idleSince != nil { idleCount -= 1 }
        return entry
    }

    /// Closes the least recently used idle books while the pool is past its bounds, off the actor: a close waits
    /// for reads.
    private func evictIdle() {
        while open.count > capacity || descriptors > descriptorBudget, idleCount > 0, idleHead < idleOrder.count {
            let (stamp, bookID) = idleOrder[idleHead]
            idleHead += 1
            guard open[bookID]?.idleSince == stamp, let entry = remove(bookID) else { continue }
            closeInBackground(entry.store, bookID)
        }
        // Rebuild the queue once stale entries are most of it (a hot book given back again and again appends each
        // time), so it stays proportional to the idle books; amortised over the appends that made it grow.
        if idleOrder.count - idleHead > 2 * idleCount + 1_024 {
            idleOrder = open.compactMap { id, entry in entry.idleSince.map { ($0, id) } }.sorted { $0.clock < $1.clock }
            idleHead = 0
        }
    }
}
