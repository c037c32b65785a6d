import ArgumentParser
import CarnetStore
import Foundation

extension Carnet {
    /// `carnet book create|list|rename|delete|share|unshare`: address books and who may open them.
    struct BookCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "book", abstract: "Manage address books and their sharing.",
            subcommands: [Create.self, List.self, Delete.self, Share.self, Unshare.self])

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Create an address book.")
            @OptionGroup var options: DataOptions
            @Argument(help: "The book's name.") var name: String
            @Option(help: "The owner (name or id). Default: the admin.") var owner: String?

            func run() async throws {
                let book = try await options.withFolder(creating: true) { folder in
                    let principal = try await folder.resolvePrincipal(owner)
                    return try await folder.catalog.createBook(name: name, ownerID: principal.id)
                }
                print("Created book \(book.name) (\(book.id)).")
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "List the books a principal may open, with its access and who shared them.")
            @OptionGroup var options: DataOptions
            @Option(help: "The principal (name or id). Default: the admin.") var principal: String?

            func run() async throws {
                let books = try await options.withFolder { folder in
                    try await folder.catalog.books(visibleTo: folder.resolvePrincipal(principal).id)
                }
                print("ID                                   NAME                 ACCESS     SHARED BY")
                for visible in books {
                    print(
                        [
                            visible.book.id.padded(36), visible.book.name.padded(20),
                            visible.access.rawValue.padded(10), visible.sharedBy?.name ?? "-",
                        ].joined(separator: " "))
                }
            }
        }

        struct Delete: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Delete an address book and its file (not a principal's default book).")
            @OptionGroup var options: DataOptions
            @Argument(help: "The book's id.") var book: String
            @Flag(name: .customLong("yes"), help: "Do not ask for confirmation.") var confirmed = false

            func run() async throws {
                try await options.withFolder { folder in
                    guard let found = try await folder.catalog.book(id: book) else {
                        throw ValidationError("No address book has id \(book).")
                    }
                    guard confirmed || confirm("Delete the address book \(found.name) and all its records?") else {
                        throw ExitCode.failure
                    }
                    try await folder.books.delete(try await folder.catalog.deleteBook(id: book, by: found.ownerID))
                }
                print("Deleted \(book).")
            }
        }

        struct Share: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Share a book with another principal.")
            @OptionGroup var options: DataOptions
            @Argument(help: "The book's id.") var book: String
            @Argument(help: "The principal to share with (name or id).") var principal: String
            @Option(help: "read or readWrite. Default: read.") var access: BookAccess = .read

            func run() async throws {
                try await options.withFolder { folder in
                    guard let found = try await folder.catalog.book(id: book) else {
                        throw ValidationError("No address book has id \(book).")
                    }
                    let grantee = try await folder.resolvePrincipal(principal)
                    try await folder.catalog.share(bookID: book, with: grantee.id, access: access, by: found.ownerID)
                }
                print("Shared \(book) with \(principal) (\(access.rawValue)).")
            }
        }

        struct Unshare: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Withdraw a principal's access to a book; a running server applies it within two seconds.")
            @OptionGroup var options: DataOptions
            @Argument(help: "The book's id.") var book: String
            @Argument(help: "The principal (name or id).") var principal: String

            func run() async throws {
                let removed = try await options.withFolder { folder in
                    guard let found = try await folder.catalog.book(id: book) else {
                        throw ValidationError("No address book has id \(book).")
                    }
                    let grantee = try await folder.resolvePrincipal(principal)
                    return try await folder.catalog.unshare(bookID: book, with: grantee.id, by: found.ownerID)
                }
                guard removed else { throw ValidationError("\(principal) had no access to \(book).") }
                print("Unshared \(book) from \(principal).")
            }
        }
    }
}

extension BookAccess: ExpressibleByArgument {}
