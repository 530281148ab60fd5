import CourtsideTransport
import Logging
import ZeroMQ

/// A transport on loopback ports the system picks, and DEALERs that talk to it, for the
/// transport's own suites.
enum LoopbackTransport {
    static func start() async throws -> ZMQTransport {
        let configuration = TransportConfiguration(
            commandEndpoint: "tcp://127.0.0.1:*", eventEndpoint: "tcp://127.0.0.1:*")
        return try await ZMQTransport.start(configuration, logger: Logger(label: "courtside.test"))
    }

    /// A DEALER connected to `transport`'s command socket, waiting at most 10 s for a reply.
    static func dealer(_ context: ZMQContext, to transport: ZMQTransport, routingID: [UInt8]? = nil) throws -> ZMQSocket {
        let dealer = try context.socket(.dealer)
        try dealer.set(.linger(milliseconds: 0))
        try dealer.set(.receiveTimeout(milliseconds: 10_000))
        if let routingID { try dealer.set(.routingID(routingID)) }
        try dealer.connect(transport.boundCommandEndpoint)
        return dealer
    }
}
