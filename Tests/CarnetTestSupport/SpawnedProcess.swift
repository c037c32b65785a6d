import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn`, not Foundation's `Process`.
///
/// Why: on Linux, `Process.run()` (swift-corelibs-foundation up to Swift 6.3.1) lists `/proc/self/fd` with a
/// `readdir` loop that copies the whole 256-byte `d_name` of each entry; an entry at the end of glibc's buffer makes
/// that copy read into an unmapped page, and the test process dies with SIGSEGV (swift-corelibs-foundation PR
/// #5472). A suite that spawns many children in parallel hit it in CI. Spawning here also closes every descriptor
/// above standard error in the child, so a child never holds another test's pipe open.
public final class SpawnedProcess: Sendable {
    /// The child's process id.
    public let processIdentifier: pid_t
    private let status = Mutex<Int32?>(nil)

    /// Starts `executable` with `arguments`, `environment` (the whole environment) in `directory`, its standard
    /// input from /dev/null and its standard output and error on the given descriptors.
    init(
        executable: URL, arguments: [String], environment: [String: String], directory: URL,
        standardOutput: Int32, standardError: Int32
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        posix_spawn_file_actions_adddup2(&actions, standardError, 2)
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }
        guard let changeDirectory = Self.addChangeDirectory else {
            throw ChildProcessError.notFound("posix_spawn_file_actions_addchdir_np in the C library")
        }
        let changed = directory.path.withCString { changeDirectory(&actions, $0) }
        guard changed == 0 else { throw ChildProcessError.spawnFailed(changed) }

        // Signals the test process ignores (SIGPIPE) or blocks must not carry over into the child.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        var none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable.path] + arguments).map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer { for string in argv + envp { free(string) } }
        var pid = pid_t()
        let result = (argv + [nil]).withUnsafeBufferPointer { arguments in
            (envp + [nil]).withUnsafeBufferPointer { environment in
                posix_spawn(
                    &pid, executable.path, &actions, &attributes, arguments.baseAddress!, environment.baseAddress!)
            }
        }
        guard result == 0 else { throw ChildProcessError.spawnFailed(result) }
        processIdentifier = pid
    }

    /// Whether the child has not exited yet (reaps it once it has).
    public var isRunning: Bool { reap(blocking: false) == nil }

    /// Blocks until the child exits.
    public func waitUntilExit() { _ = reap(blocking: true) }

    /// The exit code, or the signal number if a signal ended the child (as Foundation's `Process` reports it).
    public var terminationStatus: Int32 {
        guard let status = reap(blocking: false) else { return 0 }
        return Self.exited(status) ? (status >> 8) & 0xff : status & 0x7f
    }

    /// Whether the child exited or a signal ended it.
    public var terminationReason: Process.TerminationReason {
        guard let status = reap(blocking: false) else { return .exit }
        return Self.exited(status) ? .exit : .uncaughtSignal
    }

    /// Sends SIGTERM.
    public func terminate() { kill(processIdentifier, SIGTERM) }

    private static func exited(_ status: Int32) -> Bool { status & 0x7f == 0 }

    /// The child's wait status once it has exited; `waitpid` runs under the lock so it reaps exactly once.
    private func reap(blocking: Bool) -> Int32? {
        status.withLock { known in
            if let known { return known }
            var raw: Int32 = 0
            while true {
                let result = waitpid(processIdentifier, &raw, blocking ? 0 : WNOHANG)
                if result == processIdentifier {
                    known = raw
                    return raw
                }
                if result == -1, errno == EINTR { continue }
                return nil
            }
        }
    }

    private typealias AddChangeDirectory =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    // glibc declares these only under _GNU_SOURCE, so Swift's Glibc module does not import them.
    private static let addChangeDirectory: AddChangeDirectory? = symbol("posix_spawn_file_actions_addchdir_np")
    private static let addCloseFrom: AddCloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")

    private static func symbol<Function>(_ name: String) -> Function? {
        guard let address = dlsym(dlopen(nil, RTLD_NOW), name) else { return nil }
        return unsafeBitCast(address, to: Function.self)
    }
}
