import ArgumentParser
import CarnetStore
import CarnetVCard
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Carnet {
    /// `carnet import`: vCard files into the local database.
    struct ImportCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract:
                "Import vCard files (2.1, 3.0, 4.0): new cards are added, cards whose UID is known update their contact."
        )

        @OptionGroup var options: DataOptions
        @OptionGroup var book: BookOption

        @Argument(help: "The vCard files; - for standard input.") var files: [String]

        @Option(help: "The container to import into (the default container when absent).") var container: String?

        @Option(help: "The transaction author recorded in the change history.") var author = "carnet-import"

        @Flag(
            help:
                "Refuse a whole file at its first bad card (unreadable, or refused by the store) instead of skipping the card; nothing of the file is written."
        )
        var strict = false

        @Flag(
            help:
                "Link (not merge) each imported card to a contact of another container that is the same person: a shared email or phone number, else the same given and family name."
        )
        var linkDuplicates = false

        func run() async throws {
            let failed = try await book.withStore(options, creating: true) { store, _ in try await importFiles(store) }
            if failed { throw ExitCode(1) }
        }

        /// Imports every file; `true` if any card or file failed.
        private func importFiles(_ store: any ContactStore) async throws -> Bool {
            var failed = false
            for file in files {
                let data: Data
                do {
                    data = try Self.read(file)
                } catch {
                    FileHandle.standardError.write(Data("\(file): cannot read: \(error)\n".utf8))
                    failed = true
                    continue
                }
                let bar = ProgressBar(label: (file as NSString).lastPathComponent, total: Self.estimateCards(data))
                var importer = VCardImporter(
                    store: store, containerIdentifier: container, transactionAuthor: author, strict: strict)
                importer.linkDuplicates = linkDuplicates
                importer.readsAhead = true  // the process's only work: its reading and its writes take a core each
                do {
                    let summary = try await importer.importCards(data) { bar.update($0) }
                    bar.finish()
                    print(Self.report(file, summary))
                    if !summary.skipped.isEmpty { failed = true }
                } catch let issue as VCardIssue {
                    bar.finish()
                    FileHandle.standardError.write(Data("\(file): refused (strict): \(issue)\n".utf8))
                    failed = true
                } catch let error as StoreError where strict {
                    bar.finish()
                    FileHandle.standardError.write(Data("\(file): refused (strict), nothing written: \(error)\n".utf8))
                    failed = true
                }
            }
            return failed
        }

        /// The file's bytes, read whole, or standard input's for `-`; a pipe or `/dev/stdin` reads as a file does.
        /// Read, not mapped: a file truncated while the import read a mapping of it (a sync job rewriting it) killed
        /// the process with SIGBUS, and Foundation's reading of a non-regular file said it had no permission (an
        /// outside tester's finds).
        static func read(_ path: String) throws -> Data {
            // POSIX reads: Foundation's reading a pipe failed with "You don't have permission".
            let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw CommandFailure(String(cString: strerror(errno))) }
            defer { if descriptor != STDIN_FILENO { close(descriptor) } }
            var data = Data()
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count == 0 { return data }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw CommandFailure(String(cString: strerror(errno)))
                }
                data.append(contentsOf: chunk[..<count])
            }
        }

        /// Counts BEGIN:VCARD lines for the progress bar (a quick byte scan).
        static func estimateCards(_ data: Data) -> Int {
            let needle = Array("BEGIN:VCARD".utf8)
            var count = 0
            data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
                let bytes = buffer.bindMemory(to: UInt8.self)
                var index = 0
                while index + needle.count <= bytes.count {
                    if bytes[index] == UInt8(ascii: "B") || bytes[index] == UInt8(ascii: "b") {
                        var match = true
                        for offset in 0..<needle.count where bytes[index + offset] & 0xDF != needle[offset] & 0xDF {
                            match = false
                            break
                        }
                        if match { count += 1 }
                    }
                    index += 1
                }
            }
            return max(count, 1)
        }

        static func report(_ file: String, _ summary: VCardImporter.Summary) -> String {
            var lines = [
                "\(file): imported \(summary.imported) cards (\(summary.added) added, \(summary.updated) updated, "
                    + "\(summary.unchanged) unchanged), \(summary.groupsCreated) groups created, \(summary.groupCards) group cards, \(summary.skipped.count) skipped"
                    + (summary.linked == 0 ? "" : ", \(summary.linked) linked to the same person elsewhere")
                    + (summary.warnings.isEmpty ? "" : ", \(summary.warnings.count) warnings")
            ]
            for issue in summary.skipped.prefix(20) { lines.append("  skipped \(issue)") }
            if summary.skipped.count > 20 { lines.append("  ... and \(summary.skipped.count - 20) more") }
            for warning in summary.warnings.prefix(20) { lines.append("  warning \(warning)") }
            if summary.warnings.count > 20 { lines.append("  ... and \(summary.warnings.count - 20) more warnings") }
            return lines.joined(separator: "\n")
        }
    }
}
