import CourtsideServer
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("sd_notify", .timeLimit(.minutes(1)))
struct SystemdNotifierTests {
    @Test("a notify socket nobody reads never blocks the daemon: notifications beyond its queue are dropped")
    func neverBlocks() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString).sock").path
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(fd >= 0)
        defer {
            close(fd)
            unlink(path)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path])
        // The kernel queues a handful of datagrams (net.unix.max_dgram_qlen); the rest must not wait.
        let results = (0..<200).map { notifier.notify("STATUS=\($0)") }
        #expect(results.first == true)
        #expect(results.contains(false))
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = recv(fd, &buffer, buffer.count, 0)
        #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self) == "STATUS=0")
    }
}
