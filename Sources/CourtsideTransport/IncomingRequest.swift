/// A request read from the command socket: who sent it and the frames after the routing envelope.
public struct IncomingRequest: Sendable {
    /// The ROUTER envelope to send the reply back with: the peer's routing id, and the empty
    /// delimiter frame when the peer sent one (REQ sockets do, DEALERs may).
    public let envelope: [[UInt8]]
    /// The first frame after the envelope, if any.
    let firstFrame: [UInt8]?
    /// The frames after the first. A well-formed request has none: kept apart, its one frame
    /// needs no array of frames (an allocation a request on the I/O thread, and a free on the pool).
    let laterFrames: [[UInt8]]
    /// The user id the ZAP handler gave the sender's connection; nil on a plaintext endpoint.
    public let userID: String?
    /// When the I/O thread read it, for the time a request spends inside the daemon.
    public let received: ContinuousClock.Instant

    public init(
        envelope: [[UInt8]], frames: [[UInt8]], userID: String? = nil, received: ContinuousClock.Instant = .now
    ) {
        self.init(envelope: envelope, first: frames.first, later: Array(frames.dropFirst()), userID: userID, received: received)
    }

    init(envelope: [[UInt8]], first: [UInt8]?, later: [[UInt8]], userID: String?, received: ContinuousClock.Instant) {
        precondition(first != nil || later.isEmpty, "no later frames without a first")
        self.envelope = envelope
        firstFrame = first
        laterFrames = later
        self.userID = userID
        self.received = received
    }

    /// The frames after the envelope; a well-formed request has exactly one.
    public var frames: [[UInt8]] { firstFrame.map { [$0] + laterFrames } ?? [] }

    /// How many frames follow the envelope.
    public var frameCount: Int { firstFrame == nil ? 0 : 1 + laterFrames.count }

    /// The request's one frame, when it has exactly one (a well-formed request); nil otherwise.
    public var body: [UInt8]? { laterFrames.isEmpty ? firstFrame : nil }

    /// The last frame, if any.
    public var lastFrame: [UInt8]? { laterFrames.last ?? firstFrame }
}
