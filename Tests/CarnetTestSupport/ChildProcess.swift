import Foundation
import Synchronization

/// A program a test runs: the `carnet` executable, the test writer or a Python client, with its output collected
/// line by line as it comes.
public final class ChildProcess: Sendable {
    public let process: SpawnedProcess
    private let output = OutputBuffer()
    private let lines: AsyncStream<String>
    private let lineSink: AsyncStream<String>.Continuation

    /// The repository's root (where Package.swift is).
    public static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// An executable of this package, built beside the tests (`swift test` builds every product).
    public static func executable(_ name: String) throws -> URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for directory in [
            beside, beside.deletingLastPathComponent(), repositoryRoot.appendingPathComponent(".build/debug"),
        ] {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw ChildProcessError.notFound("\(name) executable (build it with `swift build --build-tests`)")
    }

    /// The `carnet` executable built beside the tests.
    public static func carnetExecutable() throws -> URL { try executable("carnet") }

    public init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
        let (out, err) = try (Self.makePipe(), Self.makePipe())
        (lines, lineSink) = AsyncStream<String>.makeStream()
        let output = self.output
        let sink = lineSink
        // Each pipe is read on a thread of its own with blocking reads. FileHandle's readabilityHandler (a dispatch
        // source) crashed the test process once in libdispatch's event loop: the source and the descriptor's close
        // race when the handler is removed at end of file.
        Self.readToEnd(out.read, name: "stdout") { data in
            guard let data else {
                // A last line without its line break is a line too.
                let last = output.text.withLock { text -> String in
                    text.stdoutClosed = true
                    defer { text.pending = "" }
                    return text.pending
                }
                if !last.isEmpty { sink.yield(last) }
                sink.finish()
                return
            }
            // Lines may arrive split across reads: only whole lines are handed on.
            let whole = output.text.withLock { text -> [String] in
                text.stdout += String(decoding: data, as: UTF8.self)
                text.pending += String(decoding: data, as: UTF8.self)
                guard let last = text.pending.lastIndex(of: "\n") else { return [] }
                let complete = text.pending[..<last].split(separator: "\n").map(String.init)
                text.pending = String(text.pending[text.pending.index(after: last)...])
                return complete
            }
            for line in whole { sink.yield(line) }
        }
        Self.readToEnd(err.read, name: "stderr") { data in
            guard let data else { return output.text.withLock { $0.stderrClosed = true } }
            output.text.withLock { $0.stderr += String(decoding: data, as: UTF8.self) }
        }
        defer { _ = (close(out.write), close(err.write)) }
        do {
            process = try SpawnedProcess(
                executable: executable, arguments: arguments,
                environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
                directory: Self.repositoryRoot, standardOutput: out.write, standardError: err.write)
        } catch {
            // No child holds the write ends: closing them ends the reading threads.
            sink.finish()
            throw error
        }
    }

    /// A pipe whose descriptors close on exec: only the child it is handed to (as its output) gets a copy.
    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { throw ChildProcessError.spawnFailed(errno) }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
        }
        return (descriptors[0], descriptors[1])
    }

    /// Reads `descriptor` until end of file on a thread of its own, handing each chunk to `body`, then `nil`, and
    /// closes it: the thread owns it, so it cannot be closed (and its number reused) while the thread reads it.
    private static func readToEnd(_ descriptor: Int32, name: String, _ body: @escaping @Sendable (Data?) -> Void) {
        let thread = Thread {
            defer { close(descriptor) }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    body(Data(buffer[..<count]))
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    return body(nil)
                }
            }
        }
        thread.name = "child-\(name)"
        thread.start()
    }

    public var stdout: String { output.text.withLock { $0.stdout } }
    public var stderr: String { output.text.withLock { $0.stderr } }

    /// The whole lines written to standard output so far.
    public var outputLines: [String] {
        output.text.withLock { text in
            guard let last = text.stdout.lastIndex(of: "\n") else { return [] }
            return text.stdout[..<last].split(separator: "\n").map(String.init)
        }
    }

    /// The first output line containing `text` (waits up to `timeout`).
    public func line(containing text: String, timeout: Duration = .seconds(60)) async throws -> String {
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

    /// Waits for the process to exit (up to `timeout`, then kills it) and for its output to be read to the end;
    /// returns its status.
    public func wait(timeout: Duration = .seconds(600)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline {
                process.terminate()
                throw ChildProcessError.timedOut
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        try await drain(until: deadline)
        return process.terminationStatus
    }

    /// SIGKILL: the process gets no chance to finish what it is doing. Returns once its output is read to the end.
    public func kill() async throws {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try await drain(until: ContinuousClock.now + .seconds(60))
    }

    /// Waits until standard output and error reached their end, for at most 10 s more: what the process wrote before it exited
    /// is in the pipe and read within milliseconds, but the end comes only once every copy of the pipe is closed,
    /// and a child the process itself left running (a Python client's helper) may still hold one. A hang bound, not a
    /// latency goal.
    private func drain(until deadline: ContinuousClock.Instant) async throws {
        let bound = min(deadline, ContinuousClock.now + .seconds(10))
        while !output.text.withLock({ $0.stdoutClosed && $0.stderrClosed }), ContinuousClock.now < bound {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Runs a program to completion.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(600)
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try ChildProcess(executable, arguments, environment: environment)
        let status = try await child.wait(timeout: timeout)
        return (status, child.stdout, child.stderr)
    }

    /// Whether python3 can import `modules` here, for tests of independent Python clients; always true when
    /// CARNET_REQUIRE_PYTHON_CLIENTS=1 (CI), so a missing module fails those tests instead of skipping them.
    public static func pythonHas(_ modules: String) -> Bool {
        if ProcessInfo.processInfo.environment["CARNET_REQUIRE_PYTHON_CLIENTS"] == "1" { return true }
        let discard = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(discard) }
        guard
            let check = try? SpawnedProcess(
                executable: URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", "-c", "import \(modules)"],
                environment: ProcessInfo.processInfo.environment, directory: repositoryRoot,
                standardOutput: discard, standardError: discard)
        else { return false }
        check.waitUntilExit()
        return check.terminationStatus == 0
    }

    /// Waits until `condition` holds, polling; false on timeout (a hang bound, not a latency goal).
    public static func wait(seconds: Double, until condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }
}

public enum ChildProcessError: Error {
    case notFound(String)
    case timedOut
    /// `pipe` or `posix_spawn` failed with this error number.
    case spawnFailed(Int32)
}

final class OutputBuffer: Sendable {
    let text = Mutex<(stdout: String, pending: String, stderr: String, stdoutClosed: Bool, stderrClosed: Bool)>(
        ("", "", "", false, false))
}
