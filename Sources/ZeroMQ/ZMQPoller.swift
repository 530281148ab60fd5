import CZeroMQ

/// Waits until any of a set of sockets is readable (`zmq_poll`).
public struct ZMQPoller {
    private var sockets: [ZMQSocket] = []

    public init() {}

    /// Adds a socket to watch for incoming messages; returns its index in ``poll(timeoutMilliseconds:)``'s answer.
    @discardableResult
    public mutating func add(_ socket: ZMQSocket) -> Int {
        sockets.append(socket)
        return sockets.count - 1
    }

    /// Blocks up to `timeoutMilliseconds` (-1: forever) and returns which sockets are readable.
    public func poll(timeoutMilliseconds: Int) throws(ZMQError) -> [Bool] {
        var items = sockets.map { zmq_pollitem_t(socket: $0.handle, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0) }
        while zmq_poll(&items, Int32(items.count), timeoutMilliseconds) < 0 {
            let error = ZMQError.last("zmq_poll")
            if error.interrupted { continue }
            throw error
        }
        return items.map { $0.revents & Int16(ZMQ_POLLIN) != 0 }
    }
}
