import ArgumentParser
import CarnetStore
import CarnetVCard
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

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
            let output = try file.map(Self.open) ?? .standardOutput
            var wroteFile = false
            defer { if file != nil { close(output.descriptor) } }
            var buffer: [UInt8] = []
            let count: Int
            do {
                wroteFile = Self.isRegularFile(output.descriptor)
                count = try await exporter.export(groupIdentifier: group) { card in
                    buffer.append(contentsOf: card.utf8)
                    if buffer.count >= 1 << 16 {
                        try output.write(buffer)
                        buffer.removeAll(keepingCapacity: true)
                    }
                }
                try output.write(buffer)
            } catch {
                // No half-written (or empty, for a group that is not there) file left behind as if exported; a
                // pipe or a device is not removed.
                if let file, wroteFile { try? FileManager.default.removeItem(atPath: file) }
                throw error
            }
            if file != nil { FileHandle.standardError.write(Data("exported \(count) cards\n".utf8)) }
        }

        /// The file to write, opened in place: through a symbolic link, into a named pipe or a device. Foundation's
        /// `createFile` wrote a new file and renamed it over the path, which replaced a pipe, a link or (as root) a
        /// device node with a regular file, and the reader, the link's target or the device never got a byte (an
        /// outside tester's find).
        private static func open(_ path: String) throws -> OutputDescriptor {
            let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            return OutputDescriptor(descriptor: descriptor, name: path)
        }

        private static func isRegularFile(_ descriptor: Int32) -> Bool {
            var status = stat()
            return fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        }
    }
}
