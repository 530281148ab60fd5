/// Socket settings, each chosen on purpose rather than left at libzmq's defaults.
public struct TransportConfiguration: Sendable {
    /// Where scorekeepers and displays send requests (ROUTER).
    public var commandEndpoint: String
    /// Where events and heartbeats are published (PUB).
    public var eventEndpoint: String
    /// Messages queued per subscriber before PUB drops for it; a slow display then resyncs.
    public var eventHighWaterMark = Self.defaultEventHighWaterMark
    /// Messages queued per client on the command socket, in each direction.
    public var commandHighWaterMark = Self.defaultCommandHighWaterMark
    /// How long closing sockets may still send queued messages, in milliseconds.
    public var lingerMilliseconds = Self.defaultLingerMilliseconds
    /// Largest inbound message; libzmq disconnects a peer that sends more.
    public var maxMessageBytes: Int64 = 1024 * 1024
    /// Connections each endpoint queues before accepting them. libzmq's default of 100 is too
    /// few for a venue's displays all reconnecting at once after a restart (the kernel caps it
    /// at net.core.somaxconn).
    public var listenBacklog: Int32 = 4096
    /// libzmq's own I/O threads, which carry every connection's bytes (ours only polls and
    /// decides). Two, so that a keeper's connection is not always behind the thousand handshakes
    /// and 10 MB snapshots of a resync storm, at no cost to a lone keeper's round trip
    /// (docs/FIGURES.md, "The daemon's round trip").
    public var libzmqIOThreads: Int32 = 2
    /// CURVE on both endpoints with a ZAP allowlist; nil serves plaintext.
    public var security: TransportSecurity?
    /// The longest the I/O thread waits in one poll, so that an idle thread still completes a
    /// cycle this often and a watchdog can tell idle from hung.
    public var pollIntervalMilliseconds = 1000
    /// Makes the I/O thread's first poll fail: for tests of the failure path.
    public var failFirstPoll = false
    /// Requests waiting to be handled before new ones are answered at once with
    /// ``overloadedReply`` instead of queued.
    public var requestQueueLimit = 16_000
    /// The reply to a request that found the queue full, from its frames; nil drops it.
    public var overloadedReply: (@Sendable (_ frames: [[UInt8]]) -> [UInt8]?)?

    /// The default of ``eventHighWaterMark``, which the daemon's config file also falls back to.
    public static let defaultEventHighWaterMark: Int32 = 10_000
    /// The default of ``commandHighWaterMark``.
    public static let defaultCommandHighWaterMark: Int32 = 1_000
    /// The default of ``lingerMilliseconds``.
    public static let defaultLingerMilliseconds: Int32 = 500

    public init(commandEndpoint: String, eventEndpoint: String) {
        self.commandEndpoint = commandEndpoint
        self.eventEndpoint = eventEndpoint
    }
}
