/// A request read from the command socket: who sent it and the frames after the routing envelope.
public struct IncomingRequest: Sendable {
    /// The ROUTER envelope to send the reply back with: the peer's routing id, and the empty
    /// delimiter frame when the peer sent one (REQ sockets do, DEALERs may).
    public let envelope: [[UInt8]]
    /// The frames after the envelope; a well-formed request has exactly one.
    public let frames: [[UInt8]]
    /// The user id the ZAP handler gave the sender's connection; nil on a plaintext endpoint.
    public let userID: String?
    /// When the I/O thread read it, for the time a request spends inside the daemon.
    public let received: ContinuousClock.Instant

    public init(
        envelope: [[UInt8]], frames: [[UInt8]], userID: String? = nil, received: ContinuousClock.Instant = .now
    ) {
        self.envelope = envelope
        self.frames = frames
        self.userID = userID
        self.received = received
    }
}
