import ArgumentParser
import Foundation

extension Carnet {
    /// `carnet backup PATH`: a consistent copy of the database, safe while the server runs.
    struct BackupCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "backup",
            abstract: "Write a consistent copy of the database to PATH, also while the server is running.")

        @OptionGroup var options: DataOptions
        @OptionGroup var book: BookOption
        @Argument(help: "The new file (must not exist).") var path: String

        func validate() throws {
            // SQLite reads both as no file at all (a temporary or in-memory database): the copy went nowhere and
            // failed with an internal error about a missing table.
            guard !path.isEmpty, !path.hasPrefix(":") else {
                throw ValidationError("PATH names the new file, such as backup.sqlite.")
            }
        }

        func run() async throws {
            let name = try await book.withStore(options) { store, book in
                try await store.backup(to: path)
                return book.name
            }
            print("Backed up address book \(name) to \(path).")
        }
    }
}
