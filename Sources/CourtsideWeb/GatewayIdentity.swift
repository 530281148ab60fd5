public import CourtsideWebStore

/// Who a request comes from, as its session cookie says: ``KeeperAuthenticator`` and
/// ``DeskAuthenticator`` put it in the context (``GatewayRequestContext/identity``), and each
/// handler reads it from there. A request with no session cookie has none.
public enum GatewayIdentity: Sendable {
    /// A device joined to a court, as the store has it now (its court and code generation checked).
    case device(KeeperDevice)
    /// A device whose session this gateway no longer honours, and why.
    case endedDevice(DeviceRefusal)
    /// The organiser, signed in at the desk.
    case desk(DeskSession)

    /// The joined device `identity` stands for, or why it has none: one rule for the POST's 401
    /// and the keeper socket's halt answer.
    static func device(in identity: GatewayIdentity?) -> Result<KeeperDevice, DeviceRefusal> {
        switch identity {
        case .device(let device): .success(device)
        case .endedDevice(let why): .failure(why)
        case .desk, nil: .failure(.notJoined)
        }
    }
}

extension GatewayRequestContext {
    /// The joined device the request comes from; otherwise throws the refusal that answers it
    /// (401 `not_joined` or `revoked`, with why), which ``InternalErrorMiddleware`` sends as it is.
    func requireDevice() throws(RefusalResponse) -> KeeperDevice {
        try GatewayIdentity.device(in: identity).mapError { RefusalResponse($0.response) }.get()
    }

    /// The desk's session the request comes from; otherwise throws 401 `not_signed_in`.
    func requireDesk() throws(RefusalResponse) -> DeskSession {
        guard case .desk(let session) = identity else { throw RefusalResponse(DeskGateway.signInFirst()) }
        return session
    }
}
