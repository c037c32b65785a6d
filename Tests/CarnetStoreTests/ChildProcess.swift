import Foundation

/// Runs the `carnet` executable built beside the test bundle, its output going to a file.
struct ChildProcess {
    let process: Process
    let output: URL

    static var carnetExecutable: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("carnet")
    }

    init(arguments: [String], output: URL) throws {
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)  // the process reports a file it cannot write
        process = Process()
        process.executableURL = Self.carnetExecutable
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        self.output = output
        try process.run()
    }

    /// Lines the child has written so far.
    var lines: [String] {
        ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits until `condition` holds, polling; false on timeout.
    static func wait(seconds: Double, until condition: () -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }
}
