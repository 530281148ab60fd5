import CZeroMQ

#if canImport(Glibc)
    import Glibc
#endif

/// Waits until any of a loop's sockets (or plain descriptors) is readable, asking a socket for
/// its events only when it may have changed: for a loop that owns its sockets and says when it
/// has used one.
///
/// `zmq_poll` asks every socket for its events (`ZMQ_EVENTS`, which costs libzmq a `getpid` and
/// a `poll` of the socket's mailbox) on every pass, and makes a first pass that only looks: for
/// three sockets, eight syscalls or more per wait. This poller waits on the sockets' `ZMQ_FD`
/// descriptors and asks a socket only when its descriptor has signalled, when it was found
/// readable (the loop may not have read it to the end), or when the loop has used it since:
/// a send or receive may take the descriptor's signal while a message waits.
public struct ZMQSocketPoller {
    private enum Item {
        case socket(ZMQSocket)
        case fileDescriptor
    }

    private var items: [Item] = []
    private var descriptors: [pollfd] = []
    /// The sockets to ask before the next wait.
    private var unsettled: [Bool] = []

    public init() {}

    /// Adds a socket to watch for incoming messages; returns its index in ``poll(timeoutMilliseconds:)``'s answer.
    public mutating func add(_ socket: ZMQSocket) throws(ZMQError) -> Int {
        let fd = try socket.fileDescriptor()
        return append(.socket(socket), fd: fd)
    }

    /// Adds a plain file descriptor to watch for input.
    public mutating func add(fileDescriptor: Int32) -> Int {
        append(.fileDescriptor, fd: fileDescriptor)
    }

    private mutating func append(_ item: Item, fd: Int32) -> Int {
        items.append(item)
        descriptors.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
        // A socket is asked once before the first wait: messages may be queued already.
        if case .socket = item { unsettled.append(true) } else { unsettled.append(false) }
        return items.count - 1
    }

    /// Notes that the loop sent on (or received from) the socket at `index` outside what a poll
    /// reported: it is asked again before the next wait.
    public mutating func used(_ index: Int) {
        unsettled[index] = true
    }

    /// Blocks up to `timeoutMilliseconds` (-1: forever) and returns which items are readable; at
    /// once when a socket used since the last poll already is.
    public mutating func poll(timeoutMilliseconds: Int) throws(ZMQError) -> [Bool] {
        var readable = [Bool](repeating: false, count: items.count)
        var ready = false
        for index in items.indices where unsettled[index] {
            guard case .socket(let socket) = items[index] else { continue }
            unsettled[index] = false
            if try socket.hasIncoming() {
                readable[index] = true
                ready = true
            }
        }
        // Still one look at the descriptors when something is ready, so that none waits a round.
        let timeout = ready ? 0 : Int32(clamping: timeoutMilliseconds)
        while Glibc.poll(&descriptors, nfds_t(descriptors.count), timeout) < 0 {
            guard errno == EINTR else { throw ZMQError(code: errno, operation: "poll") }
        }
        for index in items.indices where descriptors[index].revents != 0 {
            switch items[index] {
            case .socket(let socket):
                if !readable[index] { readable[index] = try socket.hasIncoming() }
            case .fileDescriptor:
                // An error or hang-up is for the reader to find, as readable.
                readable[index] = true
            }
        }
        // The loop may stop reading a socket before its last message.
        for index in items.indices where readable[index] {
            if case .socket = items[index] { unsettled[index] = true }
        }
        return readable
    }
}
