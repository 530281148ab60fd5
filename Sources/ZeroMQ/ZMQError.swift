import CZeroMQ

/// A failed libzmq call: the errno it left and libzmq's description of it.
public struct ZMQError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `errno` value (`EAGAIN`, `EADDRINUSE`, `ETERM`, ...).
    public let code: Int32
    /// What was being done, for example `"zmq_bind(tcp://127.0.0.1:5555)"`.
    public let operation: String

    public init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
    }

    /// The error libzmq reports for the calling thread's last failure.
    static func last(_ operation: String) -> ZMQError {
        ZMQError(code: zmq_errno(), operation: operation)
    }

    /// libzmq's text for the code (`zmq_strerror`).
    public var message: String { String(cString: zmq_strerror(code)) }

    /// The call would have blocked (`EAGAIN`): nothing to read, or the high-water mark is reached.
    public var wouldBlock: Bool { code == EAGAIN }
    /// The context was terminated (`ETERM`).
    public var contextTerminated: Bool { code == ETERM }
    /// A signal interrupted the call (`EINTR`); retry it.
    public var interrupted: Bool { code == EINTR }

    public var description: String { "\(operation): \(message) (errno \(code))" }
}
