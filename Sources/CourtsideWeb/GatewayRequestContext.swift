public import CourtsideLocalization
public import Hummingbird
public import NIOCore

/// The gateway's request context: Hummingbird's basics, the peer's address, which the
/// PIN throttle counts wrong tries by, and the words of the request's language.
public struct GatewayRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// The connection, which a stream closes when a write to it stalls.
    public let channel: any Channel
    /// The words of the language the request asked for (``LanguageMiddleware``): the pages'
    /// view models produce their text through them. English until the middleware decides.
    public var words = Words.english

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }

    /// Keeper requests are small: a command is a few hundred bytes, a join form less.
    public var maxUploadSize: Int { GatewayServer.maxBodyBytes }
}
