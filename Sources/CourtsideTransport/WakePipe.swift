import Synchronization
import ZeroMQ

#if canImport(Glibc)
    import Glibc
#endif

/// Wakes the I/O thread from its poll: any thread writes a byte, the thread's poll sees the read
/// end, and the thread drains it.
///
/// A pipe rather than an inproc ZeroMQ socket: a wake-up is then one `write` and one `read`, and
/// the poll has one socket fewer to ask for its events on every pass.
final class WakePipe: Sendable {
    /// The end the I/O thread polls and drains.
    let readEnd: Int32
    /// The end other threads write to; nil once closed, so that a late wake-up never writes to
    /// a descriptor the process has since reused.
    private let writeEnd: Mutex<Int32?>

    init() throws(ZMQError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw ZMQError(code: errno, operation: "pipe (the I/O thread's wake-up)") }
        for fd in ends {
            // Neither end may block: a full pipe already holds a wake-up, an empty one is drained.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = Mutex(ends[1])
    }

    deinit { close() }

    /// Wakes the thread (or keeps it from sleeping through its next poll).
    func signal() {
        writeEnd.withLock { fd in
            guard let fd else { return }
            var byte: UInt8 = 1
            // EAGAIN: the pipe is full of wake-ups not yet drained, which is all this needs.
            _ = write(fd, &byte, 1)
        }
    }

    /// Takes every pending wake-up; the I/O thread calls it when the read end is readable.
    func drain() {
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &buffer, { read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// Closes both ends, once the I/O thread no longer polls: later wake-ups do nothing.
    func close() {
        let wasOpen = writeEnd.withLock { fd -> Bool in
            guard let open = fd else { return false }
            _ = Glibc.close(open)
            fd = nil
            return true
        }
        if wasOpen { _ = Glibc.close(readEnd) }
    }
}
