import CarnetStore
import Foundation

extension BookStores {
    /// Closes the book if open and deletes its database files: for a book deleted from the catalog.
    ///
    /// Requests that hold the book finish first, and its subscriptions end at once: closing its connections under
    /// a read made it read closed ones (SQLite's misuse error, reported to the client as an internal error, where
    /// a connection's memory could already be reused). From the call on the book opens no more and refuses saves,
    /// so an import into it stops at its next batch rather than keeping the deletion waiting to its end.
    public func delete(_ book: AddressBook) async throws {
        deleted.insert(book.id)
        if let pending = opening.removeValue(forKey: book.id), let store = try? await pending.value {
            try await store.close()
        }
        if let entry = remove(book.id) {
            entry.store.refuseSaves()
            if entry.leases > 0 {
                retiring[book.id] = Retiring(leases: entry.leases)
                await entry.store.notifier.finishAll()
                await withCheckedContinuation { continuation in
                    if let held = retiring[book.id], held.leases > 0 {
                        retiring[book.id]?.waiting.append(continuation)
                    } else {
                        continuation.resume()
                    }
                }
                retiring[book.id] = nil
            }
            try await entry.store.close()
        }
        // An eviction's close still running would checkpoint into the files as they go.
        if let evicted = closing[book.id] { await evicted.task.value }
        try Self.removeFiles(atPath: path(of: book))
    }

    /// Removes a book's database file with its WAL and shared-memory index, those that exist. A file another process
    /// removed meanwhile is gone as asked: a CLI command that opened the folder while the server deleted a book
    /// removed the same retired files, and one of the two failed with Foundation's raw "no such file" error (an
    /// outside tester's find).
    nonisolated static func removeFiles(atPath path: String) throws {
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            do {
                try FileManager.default.removeItem(atPath: path + suffix)
            } catch  where !FileManager.default.fileExists(atPath: path + suffix) {
                continue
            }
        }
    }

    /// A lease given back on a book being deleted: the last one lets the deletion close it.
    func releaseRetiring(_ bookID: String) {
        guard var held = retiring[bookID] else { return }
        held.leases = max(0, held.leases - 1)
        if held.leases == 0 {
            for continuation in held.waiting { continuation.resume() }
            held.waiting = []
        }
        retiring[bookID] = held
    }
}
