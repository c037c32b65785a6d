import CarnetStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many file descriptors the process may open, and how many of them address books may hold.
public enum FileDescriptorBudget {
    /// The process's soft limit on open files (`RLIMIT_NOFILE`).
    public static var limit: Int {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return 1_024 }
        return Int(clamping: min(limits.rlim_cur, 1 << 20))
    }

    /// The descriptors open books may hold: the limit less a fifth (at least 512) for clients' connections, the
    /// catalog, books being opened, certificates and logs.
    public static var forBooks: Int {
        let limit = self.limit
        return max(64, limit - max(512, limit / 5))
    }

    /// The connections a server may hold open: the reserve ``forBooks`` leaves, less 128 descriptors for the
    /// catalog, books being opened, PostgreSQL's pool, certificates and logs.
    public static var forConnections: Int {
        let limit = self.limit
        return max(64, limit - forBooks - 128)
    }

    /// Raises the soft limit to the hard one, as servers do at start (the soft default of 1,024 is for
    /// interactive programs). - Returns: the limit in force afterwards.
    @discardableResult
    public static func raiseToHardLimit() -> Int {
        var limits = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0, limits.rlim_cur < limits.rlim_max {
            limits.rlim_cur = limits.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits)
        }
        return limit
    }
}
