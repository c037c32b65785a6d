import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps two benchmark runs apart: one run per directory at a time (they would regenerate and write each other's
/// databases), and a note when another benchmark process shares the machine (it skews the timings).
enum Exclusive {
    /// Takes `<directory>/.lock` for the life of the process; throws when another run holds it.
    static func lock(directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let descriptor = open(directory + "/.lock", O_CREAT | O_RDWR, 0o644)
        guard descriptor >= 0 else { throw Failure("cannot open \(directory)/.lock") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw Failure("another carnet-bench run is using \(directory); wait for it or pass another --directory")
        }
        // Deliberately left open: the lock goes when the process does.
    }

    /// Other benchmark processes running now (their command lines).
    static func otherBenchmarks() -> [String] {
        let me = ProcessInfo.processInfo.processIdentifier
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> String? in
            guard let pid = Int32(entry), pid != me,
                let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
            else { return nil }
            let command = String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
                .trimmingCharacters(in: .whitespaces)
            let program =
                command.split(separator: " ").first.map { ($0 as Substring).split(separator: "/").last } ?? nil
            guard let program, program.hasSuffix("-bench") else { return nil }
            return command
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
