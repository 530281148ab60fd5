public import Hummingbird
public import NIOCore

/// The gateway's request context: Hummingbird's basics and the peer's address, which the
/// PIN throttle counts wrong tries by.
public struct GatewayRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// Keeper requests are small: a command is a few hundred bytes, a join form less.
    public var maxUploadSize: Int { 64 * 1024 }
}
