public import CourtsideModel

/// The keeper API's own error codes (docs/PROTOCOL.md, "courtside-web's keeper API"), beside
/// the protocol's, which the daemon's refusals carry through it unchanged.
extension CourtsideError.Code {
    /// No session, or one the gateway does not know (expired, forged): join the court first.
    public static let notJoined = CourtsideError.Code(rawValue: "not_joined")
    /// The court has a new join code since this device joined: join again with it.
    public static let revoked = CourtsideError.Code(rawValue: "revoked")
    /// The organiser revoked this device alone: the volunteer asks at the desk before joining again.
    public static let deviceRevoked = CourtsideError.Code(rawValue: "device_revoked")
    /// The PIN or the link is no court's current one.
    public static let wrongCode = CourtsideError.Code(rawValue: "wrong_code")
    /// Too many wrong PINs from this address lately: wait as `Retry-After` says.
    public static let tooManyAttempts = CourtsideError.Code(rawValue: "too_many_attempts")
    /// The organiser's desk: no session, or an expired or forged one: sign in with the passphrase.
    public static let notSignedIn = CourtsideError.Code(rawValue: "not_signed_in")
}

extension CourtsideError.Code {
    /// The gateway failed to answer (its store could not be read or written, say): logged with
    /// its cause; the request may be sent again.
    public static let internalError = CourtsideError.Code(rawValue: "internal_error")
    /// Joins or passphrase checks from this address, or from everyone, are at their rate: wait
    /// as `Retry-After` says.
    public static let slowDown = CourtsideError.Code(rawValue: "slow_down")
}
