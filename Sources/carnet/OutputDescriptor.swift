import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes to a file descriptor with `write(2)`, and says when it fails. FileHandle's `write(_:)` traps on a failed
/// write (a pipe whose reader left, a full disk): `carnet export` died with a backtrace, and a server whose standard
/// output broke would have died at its next log line (an outside tester's find).
struct OutputDescriptor {
    let descriptor: Int32
    /// What the output is, for the error: a file's path, or "standard output".
    let name: String

    static let standardOutput = OutputDescriptor(descriptor: STDOUT_FILENO, name: "standard output")

    /// Writes all of `bytes`.
    /// - Throws: ``CommandFailure`` naming the output and the system's reason.
    func write(_ bytes: some ContiguousBytes) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count, let base = raw.baseAddress {
                let written = systemWrite(descriptor, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw CommandFailure("cannot write \(name): \(String(cString: strerror(errno)))")
                }
                offset += written
            }
        }
    }

    /// Writes `text` and a line break, and ignores a failure: for log lines, which have nowhere else to go.
    func writeLine(_ text: String) {
        try? write(Data((text + "\n").utf8))
    }
}

#if canImport(Glibc)
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    private let systemWrite = Darwin.write
#endif
