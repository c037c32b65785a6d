import ArgumentParser
import CarnetStore
import CarnetVCard
import Foundation

extension Carnet {
    /// `carnet export`: contacts out as vCards.
    struct ExportCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export", abstract: "Export contacts (all, or one group's) as vCards.")

        @OptionGroup var options: DataOptions
        @OptionGroup var book: BookOption

        @Option(help: "vCard version: 3.0 (read best by Apple, Google and CardDAV clients) or 4.0.")
        var format = "3.0"

        @Option(help: "Export only this group's members.") var group: String?

        @Option(
            help:
                "How groups are written: categories (CATEGORIES on each card), cards (group cards: KIND:group in 4.0, Apple's X-ADDRESSBOOKSERVER-KIND in 3.0) or both. Default: categories for 3.0, both for 4.0."
        )
        var groups: String?

        @Argument(help: "The file to write (standard output when absent).") var file: String?

        func validate() throws {
            guard ["3.0", "4.0"].contains(format) else { throw ValidationError("--format is 3.0 or 4.0") }
            if let groups, VCardExporter.GroupStyle(rawValue: groups) == nil {
                throw ValidationError("--groups is categories, cards or both")
            }
        }

        func run() async throws {
            try await book.withStore(options) { store, _ in try await export(store) }
        }

        private func export(_ store: any ContactStore) async throws {
            let exporter = VCardExporter(
                store: store, version: format == "4.0" ? .v4 : .v3,
                groupStyle: groups.flatMap(VCardExporter.GroupStyle.init(rawValue:)))
            let output: FileHandle
            if let file {
                guard FileManager.default.createFile(atPath: file, contents: nil),
                    let handle = FileHandle(forWritingAtPath: file)
                else { throw ValidationError("cannot write \(file)") }
                output = handle
            } else {
                output = FileHandle.standardOutput
            }
            let count: Int
            do {
                count = try await exporter.export(groupIdentifier: group) { output.write(Data($0.utf8)) }
            } catch {
                // No half-written (or empty, for a group that is not there) file left behind as if exported.
                if let file {
                    try? output.close()
                    try? FileManager.default.removeItem(atPath: file)
                }
                throw error
            }
            if file != nil {
                try output.close()
                FileHandle.standardError.write(Data("exported \(count) cards\n".utf8))
            }
        }
    }
}
