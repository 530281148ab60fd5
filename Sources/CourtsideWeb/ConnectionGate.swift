public import Logging
import Metrics
public import NIOCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The gateway's door: counts every accepted connection against ``ConnectionLimits``, answers
/// those over a cap with 503 at once (no guest can queue the gateway up), and gives each
/// admitted socket the kernel's TCP user timeout, so a peer that vanished with data unacked
/// is dropped rather than held.
public final class ConnectionGate: Sendable {
    private let limits: Mutex<ConnectionLimits>
    private let userTimeout: Duration
    private let open = Gauge(label: "courtside_web_connections")
    private let refused = Counter(label: "courtside_web_connections_refused_total")
    private let logger: Logger

    /// `maximum` connections in all, `perAddress` from one address but the `unbounded` ones
    /// (trusted proxies); `userTimeout` for the kernel (`TCP_USER_TIMEOUT`).
    public init(maximum: Int, perAddress: Int, unbounded: Set<String> = [], userTimeout: Duration, logger: Logger) {
        limits = Mutex(ConnectionLimits(maximum: maximum, perAddress: perAddress, unbounded: unbounded))
        self.userTimeout = userTimeout
        self.logger = logger
    }

    /// Admits `channel` or refuses it; an admitted one is counted until it closes.
    func admit(_ channel: any Channel) -> ConnectionLimits.Decision {
        let address = channel.remoteAddress?.ipAddress.map(ClientAddress.normalized) ?? "unknown"
        let (decision, total) = limits.withLock { limits in (limits.open(address), limits.total) }
        guard decision == .admitted else {
            refused.increment()
            logger.debug(
                "connection refused", metadata: ["address": "\(address)", "bound": "\(decision == .full ? "all" : "address")"])
            return decision
        }
        open.record(total)
        channel.closeFuture.whenComplete { _ in
            let total = self.limits.withLock { limits in
                limits.close(address)
                return limits.total
            }
            self.open.record(total)
        }
        #if canImport(Glibc)
            // Milliseconds of unacknowledged data after which the kernel gives the connection up.
            let option = ChannelOptions.Types.SocketOption(level: .init(IPPROTO_TCP), name: .init(TCP_USER_TIMEOUT))
            _ = channel.setOption(option, value: SocketOptionValue(userTimeout.inMillisecondsClamped))
        #endif
        return decision
    }
}

extension ConnectionGate {
    /// Whether refused `channel` stays open a moment to read its 503 (counted until it closes),
    /// or is closed at once because ``ConnectionLimits/maximumRefused`` are already held.
    func holdsRefused(_ channel: any Channel) -> Bool {
        guard limits.withLock({ $0.holdRefused() }) else { return false }
        channel.closeFuture.whenComplete { _ in self.limits.withLock { $0.releaseRefused() } }
        return true
    }
}

extension Duration {
    /// Whole milliseconds, clamped to what a socket option holds.
    var inMillisecondsClamped: Int32 {
        let milliseconds = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }
}

/// Answers a connection over the gateway's caps: a 503 written at once (plaintext HTTP only),
/// the sending side closed, and the connection dropped a moment later, whatever the guest does.
final class RefusedConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let answer: ByteBuffer?
    let linger: TimeAmount

    /// `answer` is written as it is (nil: the connection is only closed, as under TLS).
    init(answer: ByteBuffer?, linger: TimeAmount = .seconds(1)) {
        (self.answer, self.linger) = (answer, linger)
    }

    /// The 503 a plaintext connection over a cap reads: the JSON error of docs/PROTOCOL.md.
    static func busyAnswer(_ decision: ConnectionLimits.Decision) -> ByteBuffer {
        let message =
            decision == .addressFull
            ? "too many connections from this address: close some and try again"
            : "the gateway has as many connections as it can hold: try again shortly"
        var body = DoorAnswer.errorBody(.overloaded, message)
        var answer = ByteBuffer(
            string: "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 5\r\n"
                + "connection: close\r\ncontent-length: \(body.readableBytes)\r\n\r\n")
        answer.writeBuffer(&body)
        return answer
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        if let answer {
            // Written, then only our side closed: closing at once with the guest's request
            // unread would reset the connection before the answer is read.
            context.writeAndFlush(NIOAny(answer)).whenComplete { _ in channel.close(mode: .output, promise: nil) }
        }
        context.eventLoop.scheduleTask(in: answer == nil ? .zero : linger) { channel.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The guest closed its side: nothing more to wait for.
        if event is ChannelEvent, case .inputClosed = event as! ChannelEvent { context.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) { context.close(promise: nil) }
}
