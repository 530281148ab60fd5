/// What one guest on the venue's network may take of the gateway: how long a request may take
/// to arrive, how many connections stay open, how often a PIN or a passphrase is checked.
///
/// Every bound answers rather than hangs: a connection over a cap gets 503, a body too slow is
/// closed, a join or a passphrase over its rate gets 429 with `Retry-After`. The defaults suit a
/// venue of a few hundred phones and screens; `courtside-web serve --help` names the flags.
/// The store's own bounds (devices per court, unused devices) are `GatewayStore.Limits`.
public struct GatewayLimits: Sendable {
    /// A new connection must send a whole request head within this, and an idle keep-alive
    /// connection is closed after it (``RequestFramingHandler``'s deadline for the first head,
    /// Hummingbird's idle timeout after it).
    public var headTimeout: Duration = .seconds(10)
    /// A request's body must arrive whole within this of its head.
    public var bodyTimeout: Duration = .seconds(30)
    /// Connections open at once, in all; more are answered 503 and closed. Lowered at start to
    /// what the descriptor limit allows (``DescriptorLimit``).
    public var maxConnections = 4096
    /// Connections open at once from one address; a trusted proxy's (``trustedProxies``) count
    /// against ``maxConnections`` alone, since every browser behind it shares its address.
    public var maxConnectionsPerAddress = 64
    /// Reverse proxies (HAProxy, nginx) in front of the gateway, by the address they connect
    /// from: their requests count against the client their `X-Forwarded-For` names
    /// (``ClientAddress``), and their connections against ``maxConnections`` alone.
    public var trustedProxies: Set<String> = []
    /// A Server-Sent Events stream sends a comment this often, so a browser that vanished is
    /// noticed (its TCP connection fails) and released.
    public var eventPing: Duration = .seconds(15)
    /// A write to a browser that has not completed within this closes its connection: a screen
    /// that stopped reading holds nothing for longer (the kernel's own TCP user timeout, set
    /// to the same, drops a peer that vanished without a word).
    public var stalledWriteTimeout: Duration = .seconds(30)
    /// The kernel's send buffer for an event stream, in bytes: a browser reading its events
    /// never needs more, and one that stopped reading blocks its stream after this much.
    public var eventSendBuffer = 32 * 1024
    /// Joins (right PIN or wrong) one address may make: a burst, then one per `joinInterval`.
    public var joinBurst = 20
    public var joinInterval: Duration = .seconds(3)
    /// Joins the whole gateway hears, whatever their address: a burst, then one per interval.
    public var globalJoinBurst = 60
    public var globalJoinInterval: Duration = .milliseconds(100)
    /// Passphrase checks (bcrypt, a tenth of a second of CPU each) the whole gateway starts: a
    /// burst, then one per interval; they run one at a time on a thread of their own.
    public var passphraseBurst = 4
    public var passphraseInterval: Duration = .milliseconds(500)
    /// Of those, what one address may start: a burst, then one per interval, so that one
    /// guesser takes at most a quarter of the whole rate and the organiser's own try gets in.
    public var passphraseAddressBurst = 3
    public var passphraseAddressInterval: Duration = .seconds(2)
    /// Passphrase checks that may wait for that thread; more are answered "busy" at once.
    public var passphraseQueue = 4

    public init() {}
}
