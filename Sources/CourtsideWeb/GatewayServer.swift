import CourtsideProtocol
public import HummingbirdCore
public import HummingbirdTLS
import HummingbirdWebSocket
public import Logging
import NIOCore

/// The gateway's HTTP server: Hummingbird's HTTP/1 (with TLS when given) behind
/// ``ConnectionGate``, with ``RequestFramingHandler`` and Hummingbird's idle timeout, which
/// closes a connection that sends no whole head in time as well as an idle keep-alive one. A
/// connection's first request may upgrade to the keeper's socket (``KeeperGateway/socketUpgrade(_:eventLoop:logger:)``).
public enum GatewayServer {
    /// The largest body any route takes; each route bounds its own below it.
    public static let maxBodyBytes = 64 * 1024
    /// Connections the kernel queues before the gateway accepts them (Linux caps it at
    /// `net.core.somaxconn`, 4,096): with Hummingbird's 256, 2,000 connections opened in a
    /// second overflowed the queue, and a keeper's connection among them waited a second for
    /// its SYN to be sent again.
    public static let backlog = 4096
    /// How often a keeper's socket is pinged: one that missed its pong by the next is closed.
    static let socketPing: Duration = .seconds(20)

    /// The server for `Application(router:server:)`; `keeper` takes the keeper's socket (none: every
    /// upgrade is refused).
    public static func builder(limits: GatewayLimits, gate: ConnectionGate, tls: TLSConfiguration?, keeper: KeeperGateway?)
        -> HTTPServerBuilder
    {
        HTTPServerBuilder { responder in
            let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
                http1: .init(idleTimeout: TimeAmount(limits.headTimeout)),
                ws: .init(maxFrameSize: ProtocolLimits.maxRequestBytes, autoPing: .enabled(timePeriod: socketPing)))
            let http = HTTP1WebSocketUpgradeChannel(responder: responder, configuration: configuration) { head, channel, logger in
                await keeper?.socketUpgrade(head, eventLoop: channel.eventLoop, logger: logger) ?? .dontUpgrade
            }
            let framed = FramedHTTP1Channel(
                http, maxBodyBytes: maxBodyBytes, bodyTimeout: limits.bodyTimeout, headTimeout: limits.headTimeout)
            guard let tls else { return GatedChildChannel(framed, gate: gate, answersRefusals: true) }
            return GatedChildChannel(try TLSChannel(framed, tlsConfiguration: tls), gate: gate, answersRefusals: false)
        }
    }
}
