public import HummingbirdCore
public import HummingbirdTLS
public import Logging
import NIOCore

/// The gateway's HTTP server: Hummingbird's HTTP/1 (with TLS when given) behind
/// ``ConnectionGate``, with ``RequestFramingHandler`` and Hummingbird's idle timeout, which
/// closes a connection that sends no whole head in time as well as an idle keep-alive one.
public enum GatewayServer {
    /// The largest body any route takes; each route bounds its own below it.
    public static let maxBodyBytes = 64 * 1024
    /// Connections the kernel queues before the gateway accepts them (Linux caps it at
    /// `net.core.somaxconn`, 4,096): with Hummingbird's 256, 2,000 connections opened in a
    /// second overflowed the queue, and a keeper's connection among them waited a second for
    /// its SYN to be sent again.
    public static let backlog = 4096

    /// The server for `Application(router:server:)`.
    public static func builder(limits: GatewayLimits, gate: ConnectionGate, tls: TLSConfiguration?) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            let http = HTTP1Channel(responder: responder, configuration: .init(idleTimeout: TimeAmount(limits.headTimeout)))
            let framed = FramedHTTP1Channel(http, maxBodyBytes: maxBodyBytes, bodyTimeout: limits.bodyTimeout)
            guard let tls else { return GatedChildChannel(framed, gate: gate, answersRefusals: true) }
            return GatedChildChannel(try TLSChannel(framed, tlsConfiguration: tls), gate: gate, answersRefusals: false)
        }
    }
}
