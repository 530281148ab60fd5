public import CourtsideModel

/// Limits of the protocol, documented in docs/PROTOCOL.md.
public enum ProtocolLimits {
    /// Largest request body the daemon answers; larger ones get `message_too_large`.
    public static let maxRequestBytes = 16 * 1024
    /// Largest `publish_draw` request: a whole draw (128 teams' rosters, every game's rules).
    public static let maxDrawBytes = 512 * 1024
    /// Largest message libzmq accepts at all (`ZMQ_MAXMSGSIZE`); a peer that sends more is
    /// disconnected by libzmq without a reply.
    public static let maxTransportBytes: Int64 = 1024 * 1024
}

/// Protocol-level error codes, in addition to the game library's ``CourtsideError/Code``s.
extension CourtsideError.Code {
    /// The body is not JSON, or lacks a field the operation needs.
    public static let badRequest = CourtsideError.Code(rawValue: "bad_request")
    /// The `op` is none of the documented operations.
    public static let unknownOperation = CourtsideError.Code(rawValue: "unknown_operation")
    /// The request body exceeds ``ProtocolLimits/maxRequestBytes``.
    public static let messageTooLarge = CourtsideError.Code(rawValue: "message_too_large")
    /// The message has the wrong number of frames.
    public static let badFrames = CourtsideError.Code(rawValue: "bad_frames")
    /// The authenticated key's role does not allow the request (docs/PROTOCOL.md, "Security").
    public static let forbidden = CourtsideError.Code(rawValue: "forbidden")
    /// The daemon could not encode its answer (a bug, logged with its detail); nothing changed
    /// beyond what the request did.
    public static let internalError = CourtsideError.Code(rawValue: "internal_error")
    /// This daemon is a standby (another holds the lease), or has just stepped down: nothing was
    /// decided. Send the same request, with the same ids, to the active daemon, which the message
    /// names when it is known.
    public static let notActive = CourtsideError.Code(rawValue: "not_active")
}

/// Every code a reply can carry, in the order docs/PROTOCOL.md lists them.
public let allErrorCodes: [CourtsideError.Code] = [
    .badRequest, .badFrames, .messageTooLarge, .unknownOperation, .forbidden, .unknownGame, .unknownPlayer, .playerNotInGame,
    .playerInactive,
    .unknownTeam, .gameFinished, .unknownEvent, .notAMove, .alreadyRetracted, .clockRunning, .clockNotRunning,
    .gameExists, .invalidGame, .invalidText, .teamExists, .playerExists, .gameStarted, .stageStarted, .noTimeoutsLeft,
    .bracketLocked,
    .bracketPending,
    .invalidReason, .storageFailure, .shuttingDown, .notActive,
    .retryExpired, .overloaded, .internalError,
]

/// A protocol error is a ``CourtsideError`` with a protocol code.
public typealias ProtocolError = CourtsideError
