import ArgumentParser
import CarnetServer
import CarnetStore
import Foundation

extension Carnet {
    /// `carnet token create|list|revoke`: the service's access tokens, in the data folder's catalog.
    struct TokenCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "token", abstract: "Create, list and revoke access tokens.",
            subcommands: [Create.self, List.self, Revoke.self])

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Create a token and print it (it is shown only this once; only its hash is kept).")

            @OptionGroup var options: DataOptions
            @Option(help: "What the token is for.") var name: String
            @Option(help: "read (queries, subscriptions) or write (mutations); repeatable. Default: read.")
            var scope: [AccessScope] = []
            @Option(
                help: "A transaction author the token may save as (repeatable; the first is its default). None: any.")
            var author: [String] = []
            @Option(help: "The principal (name or id) the token acts for. Default: the admin.")
            var principal: String?
            @Option(help: "An address book id the token may open (repeatable). None: every book of its principal.")
            var book: [String] = []
            @Flag(help: "Print JSON ({id, name, token, scopes, authors, principal, books}).") var json = false

            func run() async throws {
                try await options.withFolder(creating: true) { folder in try await create(folder) }
            }

            private func create(_ folder: any StoreBackend) async throws {
                let owner = try await folder.resolvePrincipal(principal)
                let scopes = Set(scope.isEmpty ? [.read] : scope)
                let (token, record) = try await AccessTokens(catalog: folder.catalog, defaultPrincipalID: owner.id)
                    .create(name: name, scopes: scopes, authors: author, bookIDs: book.isEmpty ? nil : book)
                if json {
                    let object: [String: Any] = [
                        "id": record.id, "name": record.name, "token": token, "scopes": record.scopes,
                        "authors": record.authors, "principal": owner.name, "books": record.bookIDs ?? [],
                    ]
                    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                    print(String(decoding: data, as: UTF8.self))
                } else {
                    print(token)
                    FileHandle.standardError.write(
                        Data(
                            "Created token \(record.id) for \(owner.name) (\(record.scopes.joined(separator: ", "))). It is not shown again.\n"
                                .utf8))
                }
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List tokens (never their secrets).")
            @OptionGroup var options: DataOptions
            @Option(help: "Only this principal's tokens (name or id).") var principal: String?

            func run() async throws {
                try await options.withFolder { folder in try await list(folder) }
            }

            private func list(_ folder: any StoreBackend) async throws {
                var only: Principal?
                if let principal { only = try await folder.resolvePrincipal(principal) }
                let names = Dictionary(
                    try await folder.catalog.principals().map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
                let formatter = ISO8601DateFormatter()
                print(
                    "ID            NAME                 PRINCIPAL    SCOPES       AUTHORS              CREATED               STATE"
                )
                for token in try await folder.catalog.accessTokens(principalID: only?.id) {
                    let authors = token.authors.isEmpty ? "(any)" : token.authors.joined(separator: ",")
                    let state = token.revoked.map { "revoked \(formatter.string(from: $0))" } ?? "active"
                    print(
                        [
                            token.id.padded(13), token.name.padded(20), (names[token.principalID] ?? "?").padded(12),
                            token.scopes.joined(separator: ",").padded(12), authors.padded(20),
                            formatter.string(from: token.created).padded(21), state,
                        ].joined(separator: " "))
                }
            }
        }

        struct Revoke: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Revoke a token; a running server stops accepting it within two seconds.")
            @OptionGroup var options: DataOptions
            @Argument(help: "The token's id (from `carnet token list`); one that starts with - goes after --.")
            var id: String

            func run() async throws {
                let revoked = try await options.withFolder { try await $0.catalog.revokeAccessToken(id: id) }
                guard revoked else { throw ValidationError("No active token with id \(id).") }
                print("Revoked \(id).")
            }
        }
    }
}

extension AccessScope: ExpressibleByArgument {}

extension String {
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}

extension StoreBackend {
    /// The principal identified or named by `text`, the id first: a principal named with another's id must not
    /// stand for it (an outside tester's find); the admin when `nil`.
    func resolvePrincipal(_ text: String?) async throws -> Principal {
        guard let text else { return try await admin() }
        if let found = try await catalog.principal(id: text) { return found }
        if let found = try await catalog.principal(named: text) { return found }
        throw ValidationError("No principal is named \(text) or has that id.")
    }
}
