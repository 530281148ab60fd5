public import Hummingbird
public import NIOCore

/// The gateway's request context: Hummingbird's basics and the peer's address, which the
/// PIN throttle counts wrong tries by.
public struct GatewayRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// The connection, which a stream closes when a write to it stalls.
    public let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }

    /// Keeper requests are small: a command is a few hundred bytes, a join form less.
    public var maxUploadSize: Int { GatewayServer.maxBodyBytes }
}
