#if canImport(Glibc)
    import Glibc
#endif

/// The process's limit of open descriptors, which bounds the connections the gateway can hold:
/// at 1,024 (a service's default without `LimitNOFILE=`), 1,100 idle connections from one
/// laptop made every page time out for everyone.
public enum DescriptorLimit {
    /// Descriptors kept for what is not a browser's connection: the store, ZeroMQ's sockets
    /// and pipes, the daemon's lanes, logs.
    public static let reserve = 128

    /// Raises the soft limit to the hard one (allowed without privilege) and returns it; nil
    /// where it cannot be read.
    public static func raise() -> Int? {
        #if canImport(Glibc)
            var limit = rlimit()
            guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
            if limit.rlim_cur < limit.rlim_max {
                var raised = limit
                raised.rlim_cur = limit.rlim_max
                if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
            }
            return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
        #else
            return nil
        #endif
    }

    /// The connections the gateway can hold with `descriptors` open at most, and whether that
    /// is fewer than `wanted` (the caller then warns, naming both numbers).
    public static func connections(wanted: Int, descriptors: Int?) -> (allowed: Int, short: Bool) {
        guard let descriptors else { return (wanted, false) }
        let room = max(16, descriptors - reserve)
        return room < wanted ? (room, true) : (wanted, false)
    }
}
