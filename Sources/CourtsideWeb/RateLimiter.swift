/// Token buckets: one per address and one for everyone, so that neither one guest nor many
/// together make the gateway do more of a costly thing than it can afford. Pure: the caller
/// passes the time and keeps the value under its lock.
public struct RateLimiter: Sendable {
    /// One bucket: `tokens` as of `updated`.
    struct Bucket: Sendable {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    /// Tries one address may make at once, and how often it earns another.
    public let burst: Int
    public let interval: Duration
    /// The same for every address together; nil when only addresses are bounded.
    public let globalBurst: Int?
    public let globalInterval: Duration
    /// Addresses remembered at most; the quietest go first (a flood of addresses cannot grow it).
    public var capacity = 10_000

    private var buckets: [String: Bucket] = [:]
    private var global: Bucket?

    /// Addresses remembered now.
    var addresses: Int { buckets.count }

    public init(burst: Int, every interval: Duration, globalBurst: Int? = nil, globalEvery globalInterval: Duration = .zero) {
        self.burst = max(1, burst)
        self.interval = interval
        self.globalBurst = globalBurst.map { max(1, $0) }
        self.globalInterval = globalInterval
    }

    /// Whether a try is taken now, or how long until one would be.
    public enum Decision: Sendable, Equatable {
        case allowed
        /// This address must wait.
        case wait(Duration)
        /// Everyone must wait: the gateway as a whole is at its rate.
        case busy(Duration)
    }

    /// Takes a token from `address`'s bucket and the global one, or says how long to wait;
    /// a refused try takes nothing.
    public mutating func take(_ address: String, now: ContinuousClock.Instant) -> Decision {
        var bucket = Self.refilled(buckets[address], burst: burst, interval: interval, now: now)
        if bucket.tokens < 1 { return .wait(Self.untilNext(bucket, interval: interval)) }
        var everyone: Bucket?
        if let globalBurst {
            let refilled = Self.refilled(global, burst: globalBurst, interval: globalInterval, now: now)
            if refilled.tokens < 1 { return .busy(Self.untilNext(refilled, interval: globalInterval)) }
            everyone = refilled
            everyone?.tokens -= 1
        }
        bucket.tokens -= 1
        if buckets[address] == nil, buckets.count >= capacity { forgetFullest() }
        buckets[address] = bucket
        if let everyone { global = everyone }
        return .allowed
    }

    private static func refilled(_ bucket: Bucket?, burst: Int, interval: Duration, now: ContinuousClock.Instant) -> Bucket {
        guard var bucket else { return Bucket(tokens: Double(burst), updated: now) }
        let earned = interval > .zero ? (now - bucket.updated) / interval : Double(burst)
        bucket.tokens = min(Double(burst), bucket.tokens + earned)
        bucket.updated = now
        return bucket
    }

    private static func untilNext(_ bucket: Bucket, interval: Duration) -> Duration {
        interval * max(0, 1 - bucket.tokens)
    }

    private mutating func forgetFullest() {
        // Rare (only at capacity): a tenth go at once; a full bucket is as good as forgotten.
        let fullest = buckets.sorted { $0.value.tokens > $1.value.tokens }.prefix(max(1, capacity / 10))
        for (address, _) in fullest { buckets[address] = nil }
    }
}

extension Duration {
    /// Whole seconds to tell a client in `Retry-After`: at least one.
    var retryAfterSeconds: Int { max(1, Int(components.seconds) + (components.attoseconds > 0 ? 1 : 0)) }
}
