import CarnetStore
import Foundation
import GRDB

extension SQLiteStore {
    /// Rows per section: a bounded batch in memory whatever the book's size.
    static let archiveBatch = 500

    /// Hands the book's stored state to `write` in sections, all read from one snapshot of the database (on disk a
    /// WAL snapshot, so saves may go on meanwhile; they are wholly in the copy or not at all).
    func exportArchive(to write: @Sendable (BookArchiveSection) async throws -> Void) async throws {
        let writer = try self.writer
        let reader: any DatabaseReader = try (writer as? DatabasePool)?.makeSnapshot() ?? writer
        do {
            try await write(.header(try await reader.read(ArchiveReader.header)))
            try await write(.containers(try await reader.read(ArchiveReader.containers)))
            try await exportKeyed(reader, ArchiveReader.contacts, write: { try await write(.contacts($0)) })
            try await exportKeyed(reader, ArchiveReader.groups, write: { try await write(.groups($0)) })
            try await exportKeyed(reader, ArchiveReader.memberships, write: { try await write(.memberships($0)) })
            try await exportKeyed(reader, ArchiveReader.links, write: { try await write(.links($0)) })
            try await exportKeyed(reader, ArchiveReader.valueVersions, write: { try await write(.valueVersions($0)) })
            try await exportKeyed(reader, ArchiveReader.retired, write: { try await write(.retiredIdentifiers($0)) })
            try await exportKeyed(reader, ArchiveReader.transactions, write: { try await write(.transactions($0)) })
            try await exportKeyed(reader, ArchiveReader.events, write: { try await write(.events($0)) })
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw StoreError.mapped(error)
        }
    }

    /// Pages through one table by its key (`Key`: where the last batch ended) until a batch comes back empty.
    private func exportKeyed<Item: Sendable, Key: Sendable>(
        _ reader: any DatabaseReader, _ read: @escaping @Sendable (Database, Key?) throws -> ([Item], Key?),
        write: ([Item]) async throws -> Void
    ) async throws {
        var after: Key? = nil
        while true {
            let position = after
            let (items, last) = try await reader.read { db in try read(db, position) }
            guard !items.isEmpty, let last else { return }
            after = last
            try await write(items)
        }
    }
}
