/// The game clock: elapsed = accumulated + (now - runningSince) while running.
///
/// It never ticks; callers ask for the value at a given time, which makes it exact under a
/// test clock and free when nobody looks.
public struct GameClock: Hashable, Codable, Sendable {
    /// Milliseconds counted before the current run (or in total, while stopped).
    public var accumulated: Int64
    /// When the current run began; nil while stopped.
    public var runningSince: Timestamp?

    public init(accumulated: Int64 = 0, runningSince: Timestamp? = nil) {
        self.accumulated = accumulated
        self.runningSince = runningSince
    }

    public var isRunning: Bool { runningSince != nil }

    /// Elapsed game time in milliseconds at `now`.
    public func elapsed(at now: Timestamp) -> Int64 {
        guard let runningSince else { return accumulated }
        return accumulated + now.milliseconds(since: runningSince)
    }

    /// Starts the clock at `now`; a running clock is left alone.
    public mutating func start(at now: Timestamp) {
        if runningSince == nil { runningSince = now }
    }

    /// Stops the clock at `now`, keeping the time counted so far.
    public mutating func stop(at now: Timestamp) {
        accumulated = elapsed(at: now)
        runningSince = nil
    }

    enum CodingKeys: String, CodingKey {
        case accumulated = "accumulated_ms"
        case runningSince = "running_since"
    }
}
