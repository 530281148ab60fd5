import Hummingbird
import HummingbirdAuth

/// Who signed in at the desk: the client id its commands go under (the log shows
/// `organiser/<desk>` on a secured daemon).
public struct DeskSession: Codable, Sendable {
    /// The desk's name, as its sign-in made it (`desk-3f9a1c`).
    public var desk: String
}

/// Puts the desk's session in the context (``GatewayIdentity/desk(_:)``) when the request's
/// desk cookie names one the store keeps; a request without one has no identity, and a page
/// behind the desk's sign-in refuses it (``GatewayRequestContext/requireDesk()``).
struct DeskAuthenticator: AuthenticatorMiddleware {
    typealias Context = GatewayRequestContext
    let sessions: SessionStorage<DeskSession>

    func authenticate(request: Request, context: GatewayRequestContext) async throws -> GatewayIdentity? {
        // A cookie the store cannot read (forged, ended) is no session.
        guard let session = try? await sessions.load(request: request) else { return nil }
        return .desk(session)
    }
}
