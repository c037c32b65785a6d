#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Random words from the system's generator, many per call.
enum SystemRandom {
    /// `count` random words in three system calls (the standard library's generator makes one per word).
    static func words(_ count: Int) -> [UInt64] {
        var words = [UInt64](repeating: 0, count: count)
        let filled = words.withUnsafeMutableBytes { buffer -> Bool in
            #if canImport(Glibc)
                // Swift's Glibc does not export getrandom(2); the same generator's device.
                let device = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
                guard device >= 0 else { return false }
                defer { close(device) }
                var offset = 0
                while offset < buffer.count {
                    let count = read(device, buffer.baseAddress! + offset, buffer.count - offset)
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { return false }
                    offset += count
                }
                return true
            #else
                arc4random_buf(buffer.baseAddress!, buffer.count)
                return true
            #endif
        }
        if !filled {
            var generator = SystemRandomNumberGenerator()
            for index in words.indices { words[index] = generator.next() }
        }
        return words
    }
}
