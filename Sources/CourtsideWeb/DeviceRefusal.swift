import CourtsideModel
import Hummingbird

/// Why a keeper's request has no joined device, each answered 401 with its stable code and
/// words that say what to do: join, or join again.
public enum DeviceRefusal: Error, Sendable, Equatable {
    /// No keeper cookie: the device never joined.
    case notJoined
    /// A cookie the store no longer knows: the device went unused or unseen too long, or gave
    /// its place to newer ones (the desk lists it as expired).
    case sessionEnded
    /// The court has a new code since the device joined.
    case newCode(court: String)
    /// The organiser revoked this device alone.
    case revoked(court: String)
    /// A session naming a device the store never had.
    case unknownDevice

    /// The refusal's answer: the protocol's JSON error (``error``), 401.
    var response: Response {
        KeeperGateway.error(error.code, error.message, status: .unauthorized)
    }

    /// The refusal's code and words, as the 401's body and a socket's halt answer carry them.
    var error: CourtsideError {
        switch self {
        case .notJoined:
            CourtsideError(.notJoined, "this device has not joined a court: scan the court's code or type its PIN at /keep")
        case .sessionEnded:
            CourtsideError(
                .notJoined,
                "this device's session has ended (it went unused, or the court has newer devices): join again with the court's PIN at /keep"
            )
        case .newCode(let court):
            CourtsideError(.revoked, "\(court) has a new code since this device joined: join again with the new code")
        case .revoked(let court):
            CourtsideError(
                .deviceRevoked, "the organiser revoked this device: ask at the desk, then join \(court) again with its PIN")
        case .unknownDevice:
            CourtsideError(.notJoined, "this device's session is not one this gateway gave: join again")
        }
    }
}
