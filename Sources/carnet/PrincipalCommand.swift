import ArgumentParser
import CarnetStore
import Foundation

extension Carnet {
    /// `carnet principal create|list|disable|enable|delete`: who may hold tokens and own books.
    struct PrincipalCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "principal", abstract: "Manage principals: people and service accounts.",
            subcommands: [Create.self, List.self, Disable.self, Enable.self, Delete.self])

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Create a principal with a default address book of its own.")
            @OptionGroup var options: DataOptions
            @Argument(help: "A unique name.") var name: String
            @Flag(help: "A service account rather than a person.") var service = false
            @Flag(help: "May manage principals.") var admin = false

            func run() async throws {
                let principal = try await options.withFolder(creating: true) { folder in
                    try await folder.catalog.createPrincipal(
                        name: name, kind: service ? .service : .user, isAdmin: admin)
                }
                print(
                    "Created principal \(principal.name) (\(principal.id)), default book \(principal.defaultBookID ?? "-")."
                )
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List principals.")
            @OptionGroup var options: DataOptions

            func run() async throws {
                let principals = try await options.withFolder { try await $0.catalog.principals() }
                print("ID                                   NAME                 KIND     ROLE   STATE")
                for principal in principals {
                    print(
                        [
                            principal.id.padded(36), principal.name.padded(20), principal.kind.rawValue.padded(8),
                            (principal.isAdmin ? "admin" : "-").padded(6),
                            principal.disabled == nil ? "active" : "disabled",
                        ].joined(separator: " "))
                }
            }
        }

        struct Disable: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Disable a principal: its tokens stop working within two seconds.")
            @OptionGroup var options: DataOptions
            @Argument(help: "The principal's name or id.") var principal: String

            func run() async throws {
                try await setDisabled(true, principal, options)
                print("Disabled \(principal).")
            }
        }

        struct Enable: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Enable a disabled principal again.")
            @OptionGroup var options: DataOptions
            @Argument(help: "The principal's name or id.") var principal: String

            func run() async throws {
                try await setDisabled(false, principal, options)
                print("Enabled \(principal).")
            }
        }

        struct Delete: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Delete a principal, its tokens and every address book it owns (their files too).")
            @OptionGroup var options: DataOptions
            @Argument(help: "The principal's name or id.") var principal: String
            @Flag(name: .customLong("yes"), help: "Do not ask for confirmation.") var confirmed = false

            func run() async throws {
                try await options.withFolder { folder in
                    let found = try await folder.resolvePrincipal(principal)
                    guard !found.isAdmin else { throw ValidationError("The admin principal cannot be deleted.") }
                    let owned = try await folder.catalog.books(visibleTo: found.id).filter { $0.access == .owner }
                    guard confirmed || confirm("Delete \(found.name) and its \(owned.count) address book(s)?") else {
                        throw ExitCode.failure
                    }
                    for book in try await folder.catalog.deletePrincipal(id: found.id) {
                        try await folder.books.delete(book)
                    }
                }
                print("Deleted \(principal).")
            }
        }
    }
}

/// Disables or enables the principal named or identified by `principal`.
private func setDisabled(_ disabled: Bool, _ principal: String, _ options: DataOptions) async throws {
    try await options.withFolder { folder in
        let found = try await folder.resolvePrincipal(principal)
        try await folder.catalog.setDisabled(disabled, principal: found.id)
    }
}

/// Asks on the terminal; `false` unless the answer is yes (and without a terminal).
func confirm(_ question: String) -> Bool {
    FileHandle.standardError.write(Data("\(question) [y/N] ".utf8))
    guard let answer = readLine()?.lowercased() else { return false }
    return answer == "y" || answer == "yes"
}
