import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive lock on a file, held until released: processes that take it on the same path run one at a time.
final class FolderLock {
    private var descriptor: Int32

    /// Waits for the lock, creating its file if needed.
    init(path: String) throws {
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FolderLockError(path: path, errno: errno) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let error = FolderLockError(path: path, errno: errno)
                close(descriptor)
                throw error
            }
        }
        self.descriptor = descriptor
    }

    /// Releases the lock (closing the file releases it).
    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}

/// The lock file could not be opened or locked.
struct FolderLockError: Error, CustomStringConvertible {
    let path: String
    let errno: Int32
    var description: String { "Cannot lock \(path): \(String(cString: strerror(errno)))" }
}
