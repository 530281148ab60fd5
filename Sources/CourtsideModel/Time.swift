/// A point in wall-clock time: milliseconds since the Unix epoch.
///
/// Events carry timestamps so that replaying the log gives the same clock values; the model
/// never reads a clock itself, callers pass `now` in.
public struct Timestamp: RawRepresentable, Hashable, Comparable, Codable, Sendable {
    public var rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    /// A timestamp `milliseconds` after the Unix epoch.
    public init(milliseconds: Int64) { self.rawValue = milliseconds }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(Int64.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The time `milliseconds` later.
    public func adding(milliseconds: Int64) -> Timestamp { Timestamp(milliseconds: rawValue + milliseconds) }
    /// Milliseconds from `earlier` to this timestamp (never negative).
    public func milliseconds(since earlier: Timestamp) -> Int64 { max(0, rawValue - earlier.rawValue) }
}

/// Where the current time comes from. The library asks it for `now` once per command; tests
/// inject a clock they advance by hand.
public protocol TimeSource: Sendable {
    /// The current wall-clock time.
    func now() -> Timestamp
}

extension Duration {
    /// The duration in seconds, as a floating-point number (for timing figures and sleeps).
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in whole nanoseconds (for timers), saturating far beyond any use here.
    public var nanoseconds: Int64 {
        // `components` read once: each read divides a 128-bit count of attoseconds (a reply's
        // time, read three times, was 1.3% of the log writer's samples).
        let (seconds, attoseconds) = components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).overflow
            ? .max : seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The duration in whole milliseconds, rounded down.
    public var inMilliseconds: Int {
        Int(components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)
    }
}
