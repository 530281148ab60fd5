public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// systemd's notify protocol, spoken directly: datagrams to the socket in `$NOTIFY_SOCKET`
/// (no libsystemd). Without that variable every call does nothing.
public struct SystemdNotifier: Sendable {
    private let socketPath: String?
    /// Half of `$WATCHDOG_USEC`, when systemd asks for a watchdog for this process.
    public let watchdogInterval: Duration?

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        let forUs = environment["WATCHDOG_PID"].map { $0 == String(getpid()) } ?? true
        if forUs, let text = environment["WATCHDOG_USEC"], let microseconds = Int64(text), microseconds > 0 {
            watchdogInterval = .microseconds(microseconds / 2)
        } else {
            watchdogInterval = nil
        }
    }

    public var isEnabled: Bool { socketPath != nil }

    /// Sends one notification, such as `READY=1` or `STATUS=...`; lines are joined with newlines.
    /// Returns false when there is no socket or the send failed (systemd may be gone).
    @discardableResult
    public func notify(_ assignments: String...) -> Bool {
        guard let socketPath else { return false }
        let message = assignments.joined(separator: "\n")
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketPath.utf8)
        // A leading '@' names a socket in the abstract namespace, which starts with a NUL byte.
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.enumerated() { buffer[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count)
        let sent = message.withCString { text in
            withUnsafePointer(to: &address) {
                // Never wait for the reader: a full queue (a notify socket nobody reads) would park
                // a pool thread here for good. A lost STATUS= or ping is the lesser harm.
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, text, strlen(text), Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL), $0, length)
                }
            }
        }
        return sent >= 0
    }
}
