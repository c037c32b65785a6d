import CarnetStoreTestSupport
import Foundation
import Testing

@testable import CarnetStore
@testable import CarnetStoreSQLite

/// An outside tester's restore: a replica synced past a backup's point, the backup was put in the store's place,
/// and more was saved after it than the restore lost. The replica's token was taken as a position of the restored
/// history: it kept the contacts the restore lost and never got the first new ones, with no error.
@Suite("Backup and restore")
struct BackupRestoreTests {
    func page(_ store: SQLiteStore, since token: String?) async throws -> ChangeHistoryPage {
        try await store.changeHistory(ChangeHistoryFetchRequest(startingToken: token, contactKeys: [.givenName]))
    }

    @Test("A restored backup starts every replica past its point on a full sync of what it holds")
    func restoredBackupResyncs() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-restore-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("carnet.sqlite").path
        let backupPath = directory.appendingPathComponent("backup.sqlite").path
        let store = try SQLiteStore.open(path: path)
        try await store.add((0..<3).map { Make.person("Kept\($0)", "Before") })
        try await store.backup(to: backupPath)
        try await store.add((0..<3).map { Make.person("Lost\($0)", "After") })
        let replicaToken = try await page(store, since: nil).token
        // A token of the store before the backup and one of the replica after it: both end up past the point.
        try await store.close()

        let restored = try SQLiteStore.open(path: backupPath)
        try await restored.add((0..<8).map { Make.person("New\($0)", "Restored") })
        let next = try await page(restored, since: replicaToken)
        #expect(next.events.first?.kind == .dropEverything)
        #expect(next.events.first?.dropReason == .otherStore)
        let names = Set(next.events.compactMap { $0.contact?.givenName })
        #expect(names == Set((0..<3).map { "Kept\($0)" } + (0..<8).map { "New\($0)" }))
        // The store it was taken from keeps its own identity: its tokens still continue there.
        let original = try SQLiteStore.open(path: path)
        #expect(try await page(original, since: replicaToken).events.isEmpty)
        #expect(original.storeID != restored.storeID)
        try await original.close()
        try await restored.close()
    }

    /// An outside tester's find: a backup that failed (a full disk) left an empty file, which refused the retry.
    @Test("A backup is its owner's alone; an existing destination is refused as it is; a failed one leaves nothing")
    func backupFiles() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-backup-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteStore.open(path: directory.appendingPathComponent("carnet.sqlite").path)
        try await store.add([Make.person("Kept", "Before")])
        let backupPath = directory.appendingPathComponent("backup.sqlite").path
        try await store.backup(to: backupPath)
        let attributes = try FileManager.default.attributesOfItem(atPath: backupPath)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        let taken = directory.appendingPathComponent("taken").path
        #expect(FileManager.default.createFile(atPath: taken, contents: Data("mine".utf8)))
        let refused = await #expect(throws: StoreError.self) { try await store.backup(to: taken) }
        #expect(refused?.code == .validationFailed)
        #expect(FileManager.default.contents(atPath: taken) == Data("mine".utf8))

        try await store.close()
        let failed = directory.appendingPathComponent("failed.sqlite").path
        await #expect(throws: (any Error).self) { try await store.backup(to: failed) }
        #expect(!FileManager.default.fileExists(atPath: failed))
    }
}
