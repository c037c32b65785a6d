import Foundation
import Synchronization

/// A program run by a test: the `carnet` executable or a Python client, with its output collected.
final class ChildProcess: Sendable {
    let process: Process
    private let output = OutputBuffer()
    private let lines: AsyncStream<String>
    private let lineSink: AsyncStream<String>.Continuation

    /// The repository's root (where Package.swift is).
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The `carnet` executable built beside the tests.
    static func carnetExecutable() throws -> URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for directory in [beside, beside.deletingLastPathComponent(), repositoryRoot.appendingPathComponent(".build/debug")] {
            let candidate = directory.appendingPathComponent("carnet")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw ChildProcessError.notFound("carnet executable (build it with `swift build`)")
    }

    init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = Self.repositoryRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        (lines, lineSink) = AsyncStream<String>.makeStream()
        let output = self.output
        let sink = lineSink
        out.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            if text.isEmpty { sink.finish(); handle.readabilityHandler = nil; return }
            output.text.withLock { $0.stdout += text }
            for line in text.split(separator: "\n") { sink.yield(String(line)) }
        }
        err.fileHandleForReading.readabilityHandler = { handle in
            let text = String(decoding: handle.availableData, as: UTF8.self)
            if text.isEmpty { handle.readabilityHandler = nil; return }
            output.text.withLock { $0.stderr += text }
        }
        try process.run()
    }

    var stdout: String { output.text.withLock { $0.stdout } }
    var stderr: String { output.text.withLock { $0.stderr } }

    /// The first output line containing `text` (waits up to `timeout`).
    func line(containing text: String, timeout: Duration = .seconds(60)) async throws -> String {
        let lines = self.lines
        return try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask {
                for await line in lines where line.contains(text) { return line }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let found = try await group.next() ?? nil else {
                throw ChildProcessError.notFound("output line containing \(text)")
            }
            return found
        }
    }

    /// Waits for the process to exit (up to `timeout`, then kills it) and returns its status.
    func wait(timeout: Duration = .seconds(600)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline {
                process.terminate()
                throw ChildProcessError.timedOut
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        // Let the readability handlers drain what is left in the pipes.
        try await Task.sleep(for: .milliseconds(100))
        return process.terminationStatus
    }

    /// Runs a program to completion.
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:],
        timeout: Duration = .seconds(600)) async throws -> (status: Int32, stdout: String, stderr: String)
    {
        let child = try ChildProcess(executable, arguments, environment: environment)
        let status = try await child.wait(timeout: timeout)
        return (status, child.stdout, child.stderr)
    }
}

enum ChildProcessError: Error {
    case notFound(String)
    case timedOut
}

final class OutputBuffer: Sendable {
    let text = Mutex<(stdout: String, stderr: String)>(("", ""))
}
