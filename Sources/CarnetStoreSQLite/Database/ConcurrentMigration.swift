import GRDB

extension DatabaseMigrator {
    /// Migrates a file that another connection or process may be migrating at the same moment (two first opens of
    /// a new data folder).
    ///
    /// GRDB reads which migrations are applied before it takes the write lock, so the second opener can run a
    /// migration the first has just committed and fail ("table already exists"). Each failure after which more
    /// migrations are applied than before means the other opener made progress: read again and go on. A failure
    /// without progress is this opener's own and is thrown. Bounded: every retry needs one more applied migration.
    func migrateAlongsideOthers(_ writer: any DatabaseWriter) throws {
        while true {
            let before = try writer.read { try appliedIdentifiers($0) }
            do {
                try migrate(writer)
                return
            } catch {
                let after = try writer.read { try appliedIdentifiers($0) }
                guard after.count > before.count else { throw error }
            }
        }
    }
}
