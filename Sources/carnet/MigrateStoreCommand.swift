import ArgumentParser
import CarnetStore
import Foundation

extension Carnet {
    /// `carnet migrate-store --from carnet-data --to postgres://…`: copies a whole deployment to PostgreSQL.
    struct MigrateStoreCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate-store",
            abstract:
                "Copy every principal, token, grant and address book from a data folder to a PostgreSQL database.",
            discussion: """
                Identifiers, revisions and change history are kept, and so are history tokens: clients go on syncing \
                from where they were, with no DropEverything. Each book is copied in one transaction from one \
                snapshot of it. The target must be new (a first start's admin at most). Stop the servers on the \
                data folder first: saves made after a book was copied are not in the copy. Until the copy ends, \
                servers refuse the target; a copy that stopped (killed, or failed) is started over by running \
                migrate-store again.
                """)

        @Option(help: "The data folder to copy from.") var from: String
        @Option(help: "The postgres:// URL of the database to copy to.") var to: String

        func run() async throws {
            let (source, target) = try await openMigration(from: from, to: to)
            do {
                let report = try await StoreMigration.copy(from: source, to: target) { book, copied in
                    print(
                        "Copied address book \(book.name) (\(book.id)): \(copied.contacts) contacts, \(copied.groups) groups."
                    )
                }
                print(
                    "Copied \(report.principals) principals, \(report.books) address books and \(report.tokens) access tokens."
                )
                try await source.close()
                try await target.close()
            } catch {
                try? await source.close()
                try? await target.close()
                throw error
            }
        }
    }
}
