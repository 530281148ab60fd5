public import CourtsideLocalization
public import Hummingbird
public import HummingbirdAuth
public import NIOCore

/// The gateway's request context: Hummingbird's basics, the peer's address and the client's
/// (the one the PIN throttle counts wrong tries by), the words of the request's language, and who the request
/// comes from (a joined device, the desk), as the keeper's and the desk's authenticators found.
public struct GatewayRequestContext: AuthRequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// The connection, which a stream closes when a write to it stalls.
    public let channel: any Channel
    /// The words of the language the request asked for (``LanguageMiddleware``): the pages'
    /// view models produce their text through them. English until the middleware decides.
    public var words = Words.english
    /// Who the request comes from (``KeeperAuthenticator``, ``DeskAuthenticator``): nil until
    /// an authenticator on its route finds a session.
    public var identity: GatewayIdentity?
    /// The address the request counts against: the peer's, or the client a trusted proxy names
    /// (``ClientAddressMiddleware``).
    public var clientAddress: String

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    /// Keeper requests are small: a command is a few hundred bytes, a join form less.
    public var maxUploadSize: Int { GatewayServer.maxBodyBytes }
}
