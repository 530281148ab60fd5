import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP proxy on a loopback port to one upstream port, which can black-hole: a network that
/// drops every packet and says nothing. Black-holed, it forwards nothing on the connections it
/// has, and accepts new ones without connecting them on; what is sent waits in the kernel's
/// buffers, and no side hears of a close. Healed, it connects the new ones on and forwards what
/// waited, as a network that comes back does.
///
/// One thread polls every socket; a pipe wakes it when the mode changes.
final class BlackHoleProxy: Sendable {
    let port: UInt16
    private let upstreamPort: UInt16
    private let listener: Int32
    private let control: (read: Int32, write: Int32)
    private enum Mode { case forwarding, blackHoled, stopped }
    private let mode = Mutex(Mode.forwarding)

    init(toPort upstreamPort: Int) throws {
        self.upstreamPort = UInt16(upstreamPort)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        listener = fd
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound, listen(fd, 64) == 0 else { throw DaemonError("the proxy could not listen") }
        port = UInt16(bigEndian: address.sin_port)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw DaemonError("the proxy could not make its pipe") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        control = (fds[0], fds[1])
        let thread = Thread { [self] in loop() }
        thread.start()
    }

    /// Drops everything from now on, until ``heal()``.
    func blackHole() { set(.blackHoled) }

    /// Forwards again, what waited first.
    func heal() { set(.forwarding) }

    /// Closes every connection and the port.
    func stop() { set(.stopped) }

    private func set(_ new: Mode) {
        mode.withLock { $0 = new }
        var byte: UInt8 = 1
        _ = write(control.write, &byte, 1)
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return address
    }

    /// A client's connection and, once connected on, the upstream's.
    private struct Pair {
        var client: Int32
        var upstream: Int32?
    }

    private func loop() {
        var pairs: [Pair] = []
        defer {
            for pair in pairs {
                close(pair.client)
                if let upstream = pair.upstream { close(upstream) }
            }
            close(listener)
            close(control.read)
            close(control.write)
        }
        while true {
            let current = mode.withLock { $0 }
            if current == .stopped { return }
            if current == .forwarding {
                for index in pairs.indices where pairs[index].upstream == nil {
                    pairs[index].upstream = connectUpstream()
                }
                pairs.removeAll { pair in
                    guard pair.upstream == -1 else { return false }
                    close(pair.client)
                    return true
                }
            }
            var fds = [
                pollfd(fd: control.read, events: Int16(POLLIN), revents: 0),
                pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
            ]
            if current == .forwarding {
                for pair in pairs {
                    fds.append(pollfd(fd: pair.client, events: Int16(POLLIN), revents: 0))
                    fds.append(pollfd(fd: pair.upstream!, events: Int16(POLLIN), revents: 0))
                }
            }
            guard poll(&fds, nfds_t(fds.count), -1) >= 0 else { continue }
            if fds[0].revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 64)
                _ = read(control.read, &buffer, buffer.count)
            }
            if fds[1].revents & Int16(POLLIN) != 0 {
                let client = accept(listener, nil, nil)
                if client >= 0 {
                    _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                    pairs.append(Pair(client: client, upstream: current == .forwarding ? connectUpstream() : nil))
                }
            }
            guard current == .forwarding else { continue }
            var closed: Set<Int32> = []
            for (offset, entry) in fds.enumerated().dropFirst(2) where entry.revents != 0 {
                let pair = pairs[(offset - 2) / 2]
                guard let upstream = pair.upstream, !closed.contains(pair.client) else { continue }
                let (from, to) = entry.fd == pair.client ? (pair.client, upstream) : (upstream, pair.client)
                if !forward(from: from, to: to) {
                    closed.insert(pair.client)
                    close(pair.client)
                    close(upstream)
                }
            }
            pairs.removeAll { closed.contains($0.client) }
        }
    }

    /// The upstream's connection, or -1 when it refused.
    private func connectUpstream() -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = Self.loopback(port: upstreamPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            return -1
        }
        return fd
    }

    /// Moves what `from` has to `to`; false once either side closed.
    private func forward(from: Int32, to: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = read(from, &buffer, buffer.count)
        guard count > 0 else { return false }
        var written = 0
        while written < count {
            // No SIGPIPE for a side that closed: an error, and the pair closes.
            let wrote = buffer.withUnsafeBytes { send(to, $0.baseAddress! + written, count - written, Int32(MSG_NOSIGNAL)) }
            guard wrote > 0 else { return false }
            written += wrote
        }
        return true
    }
}
