import CZeroMQ

/// Waits until any of a set of sockets (or file descriptors) is readable (`zmq_poll`).
public struct ZMQPoller {
    private enum Item {
        case socket(ZMQSocket)
        case fileDescriptor(Int32)
    }

    private var items: [Item] = []

    public init() {}

    /// Adds a socket to watch for incoming messages; returns its index in ``poll(timeoutMilliseconds:)``'s answer.
    @discardableResult
    public mutating func add(_ socket: ZMQSocket) -> Int {
        items.append(.socket(socket))
        return items.count - 1
    }

    /// Adds a plain file descriptor (a terminal's standard input, say) to watch for input.
    @discardableResult
    public mutating func add(fileDescriptor: Int32) -> Int {
        items.append(.fileDescriptor(fileDescriptor))
        return items.count - 1
    }

    /// Blocks up to `timeoutMilliseconds` (-1: forever) and returns which items are readable.
    public func poll(timeoutMilliseconds: Int) throws(ZMQError) -> [Bool] {
        var items = items.map { item in
            switch item {
            case .socket(let socket): zmq_pollitem_t(socket: socket.handle, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0)
            case .fileDescriptor(let fd): zmq_pollitem_t(socket: nil, fd: fd, events: Int16(ZMQ_POLLIN), revents: 0)
            }
        }
        while zmq_poll(&items, Int32(items.count), timeoutMilliseconds) < 0 {
            let error = ZMQError.last("zmq_poll")
            if error.interrupted { continue }
            throw error
        }
        return items.map { $0.revents & Int16(ZMQ_POLLIN) != 0 }
    }
}
