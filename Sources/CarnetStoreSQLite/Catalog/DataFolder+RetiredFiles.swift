import Foundation
import GRDB

extension DataFolder {
    /// Removes the database files of books the catalog has retired; returns their identifiers.
    ///
    /// A book leaves the catalog in one transaction and its files after it: a process stopped between the two (or a
    /// removal that failed) left contact data that no one could reach or delete any more. Only retired identifiers
    /// count, which never name a book again, so this is safe beside a running server.
    @discardableResult
    public func removeRetiredBookFiles() async throws -> [String] {
        let folder = (directory as NSString).appendingPathComponent(BookStores.folderName)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        let suffixes = [".sqlite", ".sqlite-wal", ".sqlite-shm"]
        let candidates = Set(
            names.compactMap { name in suffixes.first { name.hasSuffix($0) }.map { String(name.dropLast($0.count)) } })
        let retired = try await sqliteCatalog.read { db in
            try candidates.filter { id in
                try Bool.fetchOne(db, sql: "SELECT 1 FROM retiredIdentifier WHERE id = ?", arguments: [id]) == true
            }.sorted()
        }
        for id in retired {
            try BookStores.removeFiles(
                atPath: (directory as NSString).appendingPathComponent(BookStores.fileName(of: id)))
        }
        return retired
    }
}
