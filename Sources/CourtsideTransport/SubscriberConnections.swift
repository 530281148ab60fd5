import Foundation
import ZeroMQ

/// Which connection of the event socket is whose: learnt from each subscription, which
/// libzmq hands up with its connection's descriptor and ZAP user id.
struct SubscriberConnections {
    /// By descriptor: the user id, and the peer's address to tell the connection from a
    /// later one that reused the descriptor.
    private var byDescriptor: [Int32: (userID: String, peer: [UInt8])] = [:]

    mutating func read(_ publisher: ZMQSocket) {
        while let (frames, userID, fd) = try? publisher.receiveWithSource(flags: .dontWait) {
            // A subscription is 1 then the topic (0 is an unsubscription).
            guard frames.first?.first == 1, let userID, let fd, let peer = Self.peer(of: fd) else { continue }
            byDescriptor[fd] = (userID, peer)
        }
    }

    /// Shuts down the connections of `userIDs` (libzmq sees them end, and closes them);
    /// returns how many.
    mutating func cut(_ userIDs: Set<String>) -> Int {
        var count = 0
        for (fd, entry) in byDescriptor where userIDs.contains(entry.userID) {
            byDescriptor[fd] = nil
            guard Self.peer(of: fd) == entry.peer else { continue }
            if shutdown(fd, Int32(SHUT_RDWR)) == 0 { count += 1 }
        }
        return count
    }

    /// The remote address and port of a connected socket, as bytes to compare.
    private static func peer(of fd: Int32) -> [UInt8]? {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard named == 0 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0.prefix(Int(length))) }
    }
}
