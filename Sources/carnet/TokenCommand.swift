import ArgumentParser
import CarnetServer
import CarnetStore
import Foundation

extension Carnet {
    /// `carnet token create|list|revoke`: the service's access tokens, in the local database.
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
            @Flag(help: "Print JSON ({id, name, token, scopes, authors}).") var json = false

            func run() async throws {
                let store = try options.openStore()
                let scopes = Set(scope.isEmpty ? [.read] : scope)
                let (token, record) = try await AccessTokens(store: store).create(
                    name: name, scopes: scopes, authors: author)
                if json {
                    let object: [String: Any] = [
                        "id": record.id, "name": record.name, "token": token,
                        "scopes": record.scopes, "authors": record.authors,
                    ]
                    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                    print(String(decoding: data, as: UTF8.self))
                } else {
                    print(token)
                    FileHandle.standardError.write(
                        Data(
                            "Created token \(record.id) (\(record.scopes.joined(separator: ", "))). It is not shown again.\n"
                                .utf8))
                }
                try await store.close()
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List tokens (never their secrets).")
            @OptionGroup var options: DataOptions

            func run() async throws {
                let store = try options.openStore()
                let formatter = ISO8601DateFormatter()
                print(
                    "ID            NAME                 SCOPES       AUTHORS              CREATED               STATE")
                for token in try await store.accessTokens() {
                    let authors = token.authors.isEmpty ? "(any)" : token.authors.joined(separator: ",")
                    let state = token.revoked.map { "revoked \(formatter.string(from: $0))" } ?? "active"
                    print(
                        [
                            token.id.padded(13), token.name.padded(20), token.scopes.joined(separator: ",").padded(12),
                            authors.padded(20), formatter.string(from: token.created).padded(21), state,
                        ].joined(separator: " "))
                }
                try await store.close()
            }
        }

        struct Revoke: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Revoke a token; a running server stops accepting it within two seconds.")
            @OptionGroup var options: DataOptions
            @Argument(help: "The token's id (from `carnet token list`).") var id: String

            func run() async throws {
                let store = try options.openStore()
                let revoked = try await store.revokeAccessToken(id: id)
                try await store.close()
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
