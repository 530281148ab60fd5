/// Decides each WATCHDOG=1: the daemon is alive only while its I/O thread keeps turning and its
/// writer keeps committing. A timer alone would keep pinging from a daemon whose sockets or
/// disk hang, and systemd would never restart it.
public struct WatchdogCheck: Sendable {
    /// The longest a command may wait for its commit before the daemon counts as stuck.
    public let commitBound: Duration
    private var lastCycles: UInt64?

    public init(commitBound: Duration = .seconds(5)) {
        self.commitBound = commitBound
    }

    /// Nil when a ping is deserved, or why not. `ioCycles` is the I/O thread's count of
    /// completed poll cycles, which must have grown since the last call (its poll interval is
    /// shorter than the ping period); `oldestPendingCommit` is how long the oldest command not
    /// yet durable has waited.
    public mutating func problem(ioCycles: UInt64, oldestPendingCommit: Duration?) -> String? {
        defer { lastCycles = ioCycles }
        if let lastCycles, ioCycles == lastCycles {
            // A quiet daemon commits on the I/O thread, so a disk stuck in fsync stops it too.
            if let waited = oldestPendingCommit {
                return
                    "the I/O thread has not completed a poll cycle since the last check, and a command has waited \(waited) for its commit: the disk may be stuck"
            }
            return "the I/O thread has not completed a poll cycle since the last check"
        }
        if let waited = oldestPendingCommit, waited > commitBound {
            return "a command has waited \(waited) for its commit (bound \(commitBound)): the log writer is stuck"
        }
        return nil
    }
}
