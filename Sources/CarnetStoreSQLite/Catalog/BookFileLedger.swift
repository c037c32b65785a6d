import CarnetStore
import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which books' files were made. A book's file is made at its first open, so a listed book without one is new,
/// unless its file was made before: then the file was lost (deleted, or truncated to nothing), and making a new,
/// empty one would hide the loss behind a new store identifier, which tells every replica to drop everything.
protocol BookFileLedger: Sendable {
    /// Whether the book's file was made once already.
    func fileWasMade(bookID: String) async throws -> Bool
    /// Notes that the book's file has been made.
    func noteFileMade(bookID: String) async throws
    /// Whether the catalog still lists the book: a book another process deleted is unlisted before its file goes.
    func isListed(bookID: String) async throws -> Bool
    /// Where the book's history ended when it was last closed, if known.
    func historyEnd(bookID: String) async throws -> HistoryEnd?
    /// Notes where the book's history ends, as it is closed.
    func noteHistoryEnd(bookID: String, _ end: HistoryEnd) async throws
}

extension SQLiteCatalog: BookFileLedger {
    func fileWasMade(bookID: String) async throws -> Bool {
        try await read { db in
            try Bool.fetchOne(db, sql: "SELECT fileMade FROM addressBook WHERE id = ?", arguments: [bookID]) ?? false
        }
    }

    func isListed(bookID: String) async throws -> Bool { try await book(id: bookID) != nil }

    func historyEnd(bookID: String) async throws -> HistoryEnd? {
        try await readByKey { db in
            try String.fetchOne(db, sql: "SELECT historyEnd FROM addressBook WHERE id = ?", arguments: [bookID])
                .flatMap(HistoryEnd.init(stored:))
        }
    }

    func noteHistoryEnd(bookID: String, _ end: HistoryEnd) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE addressBook SET historyEnd = ? WHERE id = ?", arguments: [end.stored, bookID])
        }
    }

    func noteFileMade(bookID: String) async throws {
        try await write { db in
            try db.execute(sql: "UPDATE addressBook SET fileMade = 1 WHERE id = ?", arguments: [bookID])
        }
    }

    /// Settles the books not yet known to have a file: those listed before the ledger existed, and those whose
    /// first open made the file but stopped before noting it. Each is looked up in `directory` once.
    func settleBookFiles(in directory: String) async throws {
        let unsettled = try await read { db in
            try Row.fetchAll(db, sql: "SELECT id, fileName FROM addressBook WHERE fileMade IS NOT 1").map {
                (id: $0[0] as String, fileName: $0[1] as String)
            }
        }
        guard !unsettled.isEmpty else { return }
        let made = unsettled.filter {
            BookFile.hasContent((directory as NSString).appendingPathComponent($0.fileName))
        }.map(\.id)
        try await write { db in
            try db.execute(sql: "UPDATE addressBook SET fileMade = 0 WHERE fileMade IS NULL")
            for id in made {
                try db.execute(sql: "UPDATE addressBook SET fileMade = 1 WHERE id = ?", arguments: [id])
            }
        }
    }
}

/// A book's database file on disk.
enum BookFile {
    /// Whether the file holds a database with tables, in the file or in its WAL. SQLite opens a missing or empty
    /// file as a new database, and so it does a file whose tables were only ever in a WAL that is gone: a copy
    /// taken while a server ran and restored without its `-wal` (an outside tester's find), made over, came back
    /// as a new, empty store.
    static func hasContent(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0, status.st_size > 0 else { return false }
        if hasSchema(path) { return true }
        var wal = stat()
        // A WAL's 32-byte header alone holds no frame.
        return stat(path + "-wal", &wal) == 0 && wal.st_size > 32
    }

    /// Whether the file's header counts a schema change (its schema cookie, at offset 40, is not 0). A file that is
    /// not a SQLite database counts as one: SQLite then says what it is not.
    private static func hasSchema(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 100), header.count == 100,
            header.starts(with: Array("SQLite format 3\u{0}".utf8))
        else { return true }
        return header[header.startIndex + 40..<header.startIndex + 44].contains { $0 != 0 }
    }

    /// The error for a book whose file was made and is gone.
    static func lost(_ bookID: String, path: String) -> StoreError {
        StoreError(
            .storageFailure,
            "The file of address book \(bookID) (\((path as NSString).lastPathComponent)) is missing or empty, though "
                + "it was made before (a copy taken while a server ran holds its data in the -wal beside it): restore "
                + "it from a backup (carnet backup) or a copy of the data folder, or delete the book.",
            affected: [bookID])
    }
}
