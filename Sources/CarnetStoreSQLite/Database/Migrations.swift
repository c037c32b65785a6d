import CarnetStore
import GRDB

/// The store's schema history. Append-only: a shipped migration is never edited.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1", migrate: Migration001.migrate)
        migrator.registerMigration("v2", migrate: Migration002.migrate)
        migrator.registerMigration("v3", migrate: Migration003.migrate)
        migrator.registerMigration("v4", foreignKeyChecks: .immediate, migrate: Migration004.migrate)
        migrator.registerMigration("v5", foreignKeyChecks: .immediate, migrate: Migration005.migrate)
        migrator.registerMigration("v6", foreignKeyChecks: .immediate, migrate: Migration006.migrate)
        migrator.registerMigration("v7", foreignKeyChecks: .immediate, migrate: Migration007.migrate)
        migrator.registerMigration("v8", foreignKeyChecks: .immediate, migrate: Migration008.migrate)
        migrator.registerMigration("v9", foreignKeyChecks: .immediate, migrate: Migration009.migrate)
        migrator.registerMigration("v10", foreignKeyChecks: .immediate, migrate: Migration010.migrate)
        migrator.registerMigration("v11", foreignKeyChecks: .immediate, migrate: Migration011.migrate)
        migrator.registerMigration("v12", foreignKeyChecks: .immediate, migrate: Migration012.migrate)
        migrator.registerMigration("v13", foreignKeyChecks: .immediate, migrate: Migration013.migrate)
        migrator.registerMigration("v14", foreignKeyChecks: .immediate, migrate: Migration014.migrate)
        migrator.registerMigration("v15", foreignKeyChecks: .immediate, migrate: Migration015.migrate)
        return migrator
    }
}
