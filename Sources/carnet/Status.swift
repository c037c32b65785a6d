import ArgumentParser
import CarnetStore
import Foundation

extension Carnet {
    /// Opens (creating if needed) the local database and prints what it holds.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create or open the local database and print a summary.")

        @OptionGroup var options: DataOptions
        @OptionGroup var book: BookOption

        func run() async throws {
            try await book.withStore(options, creating: true) { store, book in
                let containers = try await store.containers()
                print("address book:     \(book.name) (\(book.id))")
                print("contacts:         \(try await store.contactCount())")
                print("groups:           \(try await store.groupCount())")
                print("containers:       \(containers.map { "\($0.name) (\($0.type))" }.joined(separator: ", "))")
                print("history token:    \(try await store.currentHistoryToken())")
            }
        }
    }
}
