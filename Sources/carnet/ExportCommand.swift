import ArgumentParser
import CarnetStore
import CarnetVCard
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
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
            // Opened at the first bytes, once the export is under way: a --group that names no group does not empty
            // the file first.
            var output: OutputDescriptor? = file == nil ? .standardOutput : nil
            func opened() throws -> OutputDescriptor {
                if let output { return output }
                let made = try Self.open(file ?? "")
                output = made
                return made
            }
            var buffer: [UInt8] = []
            let count: Int
            do {
                count = try await exporter.export(groupIdentifier: group) { card in
                    buffer.append(contentsOf: card.utf8)
                    if buffer.count >= 1 << 16 {
                        try opened().write(buffer)
                        buffer.removeAll(keepingCapacity: true)
                    }
                }
                try opened().write(buffer)
                if let file, let output { try Self.close(output, file) }
            } catch {
                // No half-written file left behind as if exported; a link, a pipe or a device is not removed, nor a
                // file never opened (a --group that names no group).
                if let file, let output {
                    _ = systemClose(output.descriptor)
                    if Self.isRegularFile(atPath: file) { try? FileManager.default.removeItem(atPath: file) }
                }
                throw error
            }
            if file != nil { FileHandle.standardError.write(Data("exported \(count) cards\n".utf8)) }
        }

        /// The file to write, opened in place: through a symbolic link, into a named pipe or a device. Foundation's
        /// `createFile` wrote a new file and renamed it over the path, which replaced a pipe, a link or (as root) a
        /// device node with a regular file, and the reader, the link's target or the device never got a byte (an
        /// outside tester's find).
        private static func open(_ path: String) throws -> OutputDescriptor {
            let descriptor = systemOpen(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            return OutputDescriptor(descriptor: descriptor, name: path)
        }

        /// Closes the file, saying so when the close fails: on a network file system or past a quota, that is
        /// where a write is refused.
        private static func close(_ output: OutputDescriptor, _ path: String) throws {
            guard systemClose(output.descriptor) == 0 else {
                throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno)))")
            }
        }

        /// Whether the path itself (not what a link at it names) is a regular file.
        private static func isRegularFile(atPath path: String) -> Bool {
            var status = stat()
            return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        }
    }
}

private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    #if canImport(Glibc)
        Glibc.open(path, flags, mode)
    #else
        Darwin.open(path, flags, mode)
    #endif
}

private func systemClose(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
        Glibc.close(descriptor)
    #else
        Darwin.close(descriptor)
    #endif
}
