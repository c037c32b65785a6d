import ArgumentParser
import CarnetGraphQL
import CarnetStore
import Foundation

extension Carnet {
    /// `carnet query`: one GraphQL operation, on the local database or a running server, for scripts.
    struct QueryCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "query",
            abstract: "Run a GraphQL document (argument, --file or standard input) and print the JSON response.",
            discussion: """
                Without --url the document runs on the local database file directly (no server needed); with --url \
                it is sent to a running server with --token. The exit status is 1 when the response has errors.
                """)

        @OptionGroup var options: DataOptions
        @OptionGroup var book: BookOption
        @Argument(help: "The GraphQL document; read from --file or standard input when absent.") var document: String?
        @Option(help: "Read the document from this file.") var file: String?
        @Option(help: "Variables as a JSON object, or @file to read them from a file (an import's vCard data).")
        var variables: String?
        @Option(help: "The operation to run when the document has several.") var operationName: String?
        @Option(
            help: "Transaction author for saves that name none (local database only; a server takes it from the token)."
        )
        var author: String?
        @Option(help: "A server's GraphQL endpoint, e.g. https://localhost:8443/graphql. Env: CARNET_URL.")
        var url: String?
        @Option(help: "The access token for --url. Env: CARNET_TOKEN.") var token: String?
        @Option(
            help:
                "CA certificate (PEM) to verify the server with; default: the data folder's development CA, then the system's. Env: CARNET_CA."
        )
        var cacert: String?

        var endpoint: String? { url ?? environment("CARNET_URL") }
        var accessToken: String? { token ?? environment("CARNET_TOKEN") }
        var caFile: String? { cacert ?? environment("CARNET_CA") }

        func validate() throws {
            guard !(document != nil && file != nil) else {
                throw ValidationError("Give the document or --file, not both.")
            }
            if endpoint != nil, accessToken == nil { throw ValidationError("--url needs --token (or CARNET_TOKEN).") }
            // A server picks a book by the document's arguments, not the request: taken silently, --book sent a
            // script's save to the token's default book (an outside tester's find).
            if endpoint != nil, book.book != nil {
                throw ValidationError(
                    "--book names a local book; with --url name it in the document (addressBook(id:), addressBookId:)."
                )
            }
        }

        func run() async throws {
            let text: String
            if let document {
                text = document
            } else if let file {
                text = try readText(file)
            } else {
                text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            }
            var body = GraphQLRequestBody(query: text, operationName: operationName)
            if let variables {
                body.variables = try Self.variables(variables)
            }
            let (bytes, hasErrors) =
                if let url = endpoint { try await remote(body, url: url) } else { try await local(body) }
            try OutputDescriptor.standardOutput.write(bytes + [0x0A])
            if hasErrors { throw ExitCode(1) }
        }

        /// The document in `file`, or a sentence saying why it cannot be read: Foundation's error printed as it is
        /// was a dump of its domain and user info (an outside tester's find).
        private func readText(_ file: String) throws -> String {
            guard let data = FileManager.default.contents(atPath: file) else {
                var isDirectory: ObjCBool = false
                let exists = FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory)
                throw CommandFailure(
                    exists
                        ? (isDirectory.boolValue ? "\(file) is a folder" : "cannot read \(file)") : "no file at \(file)"
                )
            }
            return String(decoding: data, as: UTF8.self)
        }

        /// `--variables`: the JSON object itself, or `@path` for a file holding it.
        static func variables(_ argument: String) throws -> [String: JSONValue] {
            var text = argument
            if argument.hasPrefix("@") {
                let path = String(argument.dropFirst())
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw ValidationError("cannot read the variables file \(path)")
                }
                text = String(decoding: data, as: UTF8.self)
            }
            // The parser's reason (a bad escape, a run of combining marks past the limit) rather than "not an
            // object" for every refusal (an outside tester's find).
            let parsed: JSONValue
            do {
                parsed = try JSONParser.parse(text)
            } catch {
                throw ValidationError("--variables is not valid JSON: \(error)")
            }
            guard case .object(let values) = parsed else {
                throw ValidationError("--variables must be a JSON object.")
            }
            return values
        }

        private func local(_ body: GraphQLRequestBody) async throws -> ([UInt8], Bool) {
            let author = self.author
            return try await book.withStore(options, creating: true) { store, _ in
                let service = GraphQLService(store: store)
                var context = GraphQLRequestContext()
                context.authorizeAuthor = { $0 ?? author }
                let response = await service.execute(body, context: context)
                return (response.body, response.hasErrors)
            }
        }
    }
}
