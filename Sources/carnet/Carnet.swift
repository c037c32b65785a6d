import ArgumentParser
import CarnetServer
import CarnetStore
import CarnetStorePostgres
import CarnetStoreSQLite
import Foundation

/// The `carnet` command.
@main
struct Carnet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "carnet",
        abstract: "Carnet: a contacts record store served as GraphQL over TLS.",
        subcommands: [
            Serve.self, QueryCommand.self, TokenCommand.self, PrincipalCommand.self, BookCommand.self,
            BackupCommand.self, Status.self, SchemaCommand.self, ImportCommand.self, ExportCommand.self,
            MigrateStoreCommand.self,
        ],
        defaultSubcommand: Serve.self)
}

/// Options every command that opens the local database shares.
struct DataOptions: ParsableArguments {
    @Option(
        name: .long, help: "The data folder (holds carnet.sqlite and the development certificates). Env: CARNET_DATA.")
    var data: String = environment("CARNET_DATA") ?? "./carnet-data"

    @Option(
        name: .long,
        help:
            "A postgres:// URL: keep the catalog and books in that PostgreSQL database instead of the data folder. Env: CARNET_DATABASE_URL."
    )
    var database: String? = environment("CARNET_DATABASE_URL")

    /// The files in the data folder, as the server lays them out.
    var layout: ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.dataDirectory = data
        return configuration
    }

    /// Opens the PostgreSQL database given by `--database`, else (creating, or upgrading in place) the data folder.
    func openBackend() async throws -> any StoreBackend {
        if let database {
            return try await PostgresBackend.open(try PostgresLocation(url: database))
        }
        return try await DataFolder.open(directory: data)
    }

    /// Runs `body` with the data folder open, and closes it afterwards, also when `body` throws.
    /// - Parameter creating: whether a data folder that does not exist is created, for the commands that start
    ///   one (`status`, `import`, `query` and the create commands); the others refuse it. A typo in `--data` made
    ///   `backup` write an empty store's copy and exit 0 (an outside tester's find).
    func withFolder<T>(creating: Bool = false, _ body: (any StoreBackend) async throws -> T) async throws -> T {
        if !creating, database == nil, !DataFolder.exists(directory: data) {
            throw CommandFailure(
                "No data folder at \(data) (carnet serve or carnet status creates one; see --data or CARNET_DATA).")
        }
        let folder = try await openBackend()
        do {
            let result = try await body(folder)
            try await folder.close()
            return result
        } catch {
            try? await folder.close()
            throw error
        }
    }
}

/// The two ends of `carnet migrate-store`: a data folder and a PostgreSQL database (the one pair both backends
/// support today).
func openMigration(from directory: String, to url: String) async throws -> (
    source: any StoreMigrationSource, target: any StoreMigrationTarget
) {
    guard FileManager.default.fileExists(atPath: directory) else {
        throw StoreError(.validationFailed, "No data folder at \(directory).", keyPaths: ["from"])
    }
    let target = try await PostgresBackend.open(try PostgresLocation(url: url), allowingUnfinishedMigration: true)
    do {
        return (try await DataFolder.open(directory: directory), target)
    } catch {
        try? await target.close()
        throw error
    }
}

/// A `CARNET_*` setting from the environment, if set and not empty.
func environment(_ name: String) -> String? {
    guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
    return value
}
