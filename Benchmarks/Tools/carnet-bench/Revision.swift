import Foundation

/// The commit the benchmarked store was built from, read with `git` (read-only commands) in the working directory.
enum Revision {
    /// Read once, when the benchmark starts (the sources may move on while it runs), and flagged when the store's
    /// sources are newer than this executable, which then does not contain them.
    static let atLaunch: String = {
        let revision = current()
        return storeChangedSinceBuild ? revision + " (store sources changed after this build)" : revision
    }()

    /// The store's sources: the backend-neutral core and the SQLite backend the benchmark measures.
    private static let storeSources = ["Sources/CarnetStore", "Sources/CarnetStoreSQLite"]

    private static var storeChangedSinceBuild: Bool {
        let files = FileManager.default
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        guard let built = (try? files.attributesOfItem(atPath: executable))?[.modificationDate] as? Date else {
            return false
        }
        for directory in storeSources {
            guard let sources = files.enumerator(atPath: directory) else { continue }
            for case let file as String in sources {
                let modified =
                    (try? files.attributesOfItem(atPath: directory + "/" + file))?[.modificationDate] as? Date
                if let modified, modified > built { return true }
            }
        }
        return false
    }

    private static func current() -> String {
        guard let head = git(["rev-parse", "--short", "HEAD"]), !head.isEmpty else { return "unknown" }
        let changes = git(["status", "--porcelain", "--"] + storeSources) ?? ""
        return changes.isEmpty ? head : head + " with uncommitted changes to the store"
    }

    private static func git(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
