import ArgumentParser
import CarnetGraphQL

extension Carnet {
    /// Prints the API contract.
    struct SchemaCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "schema", abstract: "Print the GraphQL schema (SDL) the service serves.")

        func run() throws {
            print(CarnetSchema.printed, terminator: "")
        }
    }
}
