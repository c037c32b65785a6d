import ArgumentParser

/// The `carnet` command.
@main
struct Carnet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "carnet",
        abstract: "Carnet: a contacts record store.",
        subcommands: [Status.self, SchemaCommand.self, ImportCommand.self, ExportCommand.self, SaveLoop.self],
        defaultSubcommand: Status.self)
}

/// Options every command that opens the local database shares.
struct DataOptions: ParsableArguments {
    @Option(name: .long, help: "The data folder (holds carnet.sqlite).")
    var data: String = "./carnet-data"

    var databasePath: String { data + "/carnet.sqlite" }
}
