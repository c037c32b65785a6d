import CarnetStore
import GRDB
import Synchronization

/// The store's GRDB database (the writer and its readers), opened on first use when the file is already migrated.
///
/// A server of many address books opens a book for one request, and most requests are point reads, which run on
/// ``PointReaders``' own connection: opening the pool as well (a writer, a reader, WAL setup) tripled what a
/// closed book cost to open and the file descriptors an open one holds. Saves, history and anything unbounded
/// open it when they first need it.
final class StoreDatabase: Sendable {
    private let opener: (@Sendable () throws -> any DatabaseWriter)?
    private let state: Mutex<(writer: (any DatabaseWriter)?, closed: Bool)>
    /// The most reader connections the pool opens (GRDB's default): unbounded reads such as history pages.
    static let maximumReaders = 5

    /// The database file, or `":memory:"`.
    let path: String

    /// An open database.
    init(_ writer: any DatabaseWriter) {
        opener = nil
        state = Mutex((writer, false))
        path = writer.path
    }

    /// A database that `open` opens on first use.
    init(path: String, open: @escaping @Sendable () throws -> any DatabaseWriter) {
        opener = open
        state = Mutex((nil, false))
        self.path = path
    }

    /// The writer, opened now if it was not. Opening takes the lock, so concurrent first uses open it once.
    func writer() throws -> any DatabaseWriter {
        try state.withLock { state in
            if let writer = state.writer { return writer }
            // The same answer as PostgreSQL's: a request that raced the book's closing (its deletion, shutdown)
            // is told to retry, not logged as a bug.
            guard !state.closed, let opener else {
                throw StoreError.storeClosed
            }
            let writer = try opener()
            state.writer = writer
            return writer
        }
    }

    /// Set when the book is being deleted: saves are refused from then on, so a long import (a save per batch)
    /// ends at its next batch instead of holding the deletion until its last one.
    private let savesRefused = Atomic<Bool>(false)

    func refuseSaves() { savesRefused.store(true, ordering: .releasing) }

    var refusesSaves: Bool { savesRefused.load(ordering: .acquiring) }

    /// Set when a save found the file removed or replaced under the open connection: the pool closes the store when
    /// it is given back, and the next open tells a lost file from a deleted book.
    private let fileLost = Atomic<Bool>(false)

    func noteFileLost() { fileLost.store(true, ordering: .releasing) }

    var hasLostItsFile: Bool { fileLost.load(ordering: .acquiring) }

    /// Whether the book is still listed (in the catalog), asked when its file is found gone: a book deleted by
    /// another process has its catalog entry gone first, a lost file does not. `nil` outside a pool with a catalog.
    let listedCheck = Mutex<(@Sendable () async throws -> Bool)?>(nil)

    /// Where the catalog says the book's history ended (``HistoryEnd``), as read or noted when the pool opened it:
    /// a close notes the end again only when it moved. A catalog write (and its sync) at every close of a book only
    /// read made a pool of many books slow to open its next one.
    let notedHistoryEnd = Mutex<HistoryEnd?>(nil)

    /// Whether the writer is open.
    var isOpen: Bool { state.withLock { $0.writer != nil } }

    /// Marks the database closed (later uses throw) and hands back the writer if it was opened, for the caller to
    /// close once reads have ended.
    func takeForClosing() -> (any DatabaseWriter)? {
        state.withLock { state in
            defer { state = (nil, true) }
            return state.writer
        }
    }
}
