import CourtsideWebStore
import Hummingbird
import HummingbirdAuth

/// What a device's session cookie stands for: the device that joined (its court and code
/// generation are the store's, checked at every request).
struct KeeperSession: Codable, Sendable {
    var device: String
}

/// Puts in the context the device a keeper's session stands for (``GatewayIdentity/device(_:)``)
/// or why that session is no longer honoured (``GatewayIdentity/endedDevice(_:)``), as the store
/// has it at this request. hummingbird-auth's `SessionAuthenticator` would need one session type
/// for the whole context; the keeper and the desk keep theirs under their own cookies.
struct KeeperAuthenticator: AuthenticatorMiddleware {
    typealias Context = GatewayRequestContext
    let store: GatewayStore

    func authenticate(request: Request, context: GatewayRequestContext) async throws -> GatewayIdentity? {
        try await identity(of: request)
    }

    /// The identity a request's keeper cookie stands for; nil when it has none. The session and
    /// its device are read in one read of the store, under the key the keeper's `SessionStorage`
    /// saved it by.
    func identity(of request: Request) async throws -> GatewayIdentity? {
        guard let cookie = request.cookies[KeeperGateway.cookieName] else { return nil }
        guard let standing = try await store.standing(ofSession: KeeperGateway.sessionKeyPrefix + cookie.value) else {
            return .endedDevice(.sessionEnded)
        }
        return switch standing {
        case .joined(let device): .device(device)
        case .revoked(let court): .endedDevice(.newCode(court: court))
        case .revokedAlone(let court): .endedDevice(.revoked(court: court))
        case .unknown: .endedDevice(.unknownDevice)
        }
    }
}
