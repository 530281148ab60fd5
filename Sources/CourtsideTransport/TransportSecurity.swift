public import ZeroMQ

/// CURVE encryption and authentication for both endpoints.
public struct TransportSecurity: Sendable {
    /// The daemon's long-term key pair; clients name its public key as their server key.
    public var serverKeys: CurveKeyPair
    /// The ZAP domain both sockets authenticate in.
    public var domain: String
    /// Decides each handshake on the I/O thread: the accepted client's user id, or a refusal.
    /// It must not block; SIGHUP's new allowlist takes effect through what it reads.
    public var authenticate: @Sendable (ZAPRequest) -> ZAPDecision

    public init(
        serverKeys: CurveKeyPair, domain: String = "courtside", authenticate: @escaping @Sendable (ZAPRequest) -> ZAPDecision
    ) {
        self.serverKeys = serverKeys
        self.domain = domain
        self.authenticate = authenticate
    }
}
