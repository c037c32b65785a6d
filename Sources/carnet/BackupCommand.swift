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

        func run() async throws {
            let name = try await book.withStore(options) { store, book in
                try await store.backup(to: path)
                return book.name
            }
            print("Backed up address book \(name) to \(path).")
        }
    }
}
