import CZeroMQ

/// A libzmq context. Thread-safe, unlike sockets: share one per process.
public final class ZMQContext: @unchecked Sendable {
    // libzmq documents contexts as thread-safe, so sharing the handle is sound.
    let handle: UnsafeMutableRawPointer

    /// A context whose sockets' connections are served by `ioThreads` libzmq I/O threads
    /// (`ZMQ_IO_THREADS`; a connection stays on the one it was given).
    public init(ioThreads: Int32 = 1) throws(ZMQError) {
        guard let handle = zmq_ctx_new() else { throw ZMQError.last("zmq_ctx_new") }
        // Set before the first socket, which starts the threads.
        guard ioThreads == 1 || zmq_ctx_set(handle, ZMQ_IO_THREADS, ioThreads) == 0 else {
            let error = ZMQError.last("zmq_ctx_set(ZMQ_IO_THREADS, \(ioThreads))")
            zmq_ctx_term(handle)
            throw error
        }
        self.handle = handle
    }

    /// How many libzmq I/O threads serve this context's connections.
    public var ioThreads: Int32 { zmq_ctx_get(handle, ZMQ_IO_THREADS) }

    /// Creates a socket of `type`. The socket must be used by one thread at a time.
    public func socket(_ type: ZMQSocketType) throws(ZMQError) -> ZMQSocket {
        try ZMQSocket(context: self, type: type)
    }

    /// Terminates the context; blocks until every socket is closed and lingering messages are
    /// sent or dropped.
    public func terminate() {
        while zmq_ctx_term(handle) != 0 && zmq_errno() == EINTR {}
    }

    /// The libzmq library version, for example (4, 3, 4).
    public static var version: (major: Int32, minor: Int32, patch: Int32) {
        var major: Int32 = 0
        var minor: Int32 = 0
        var patch: Int32 = 0
        zmq_version(&major, &minor, &patch)
        return (major, minor, patch)
    }
}

/// The socket types Courtside uses.
public enum ZMQSocketType: Sendable {
    case router, dealer, req, rep, pub, xpub, sub, push, pull, pair

    var rawValue: Int32 {
        switch self {
        case .router: ZMQ_ROUTER
        case .dealer: ZMQ_DEALER
        case .req: ZMQ_REQ
        case .rep: ZMQ_REP
        case .pub: ZMQ_PUB
        case .xpub: ZMQ_XPUB
        case .sub: ZMQ_SUB
        case .push: ZMQ_PUSH
        case .pull: ZMQ_PULL
        case .pair: ZMQ_PAIR
        }
    }
}
