import CourtsideTransport

extension RawConfiguration {
    /// `transport:`, the sockets' settings.
    struct Transport: Decodable {
        var eventHighWaterMark: Int32?
        var commandHighWaterMark: Int32?
        var lingerMs: Int32?
        var heartbeatMs: Int?
        var tournamentReadsMbPerS: Double?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case eventHighWaterMark = "event_high_water_mark"
            case commandHighWaterMark = "command_high_water_mark"
            case lingerMs = "linger_ms"
            case heartbeatMs = "heartbeat_ms"
            case tournamentReadsMbPerS = "tournament_reads_mb_per_s"
        }

        /// The section's settings as the daemon uses them.
        struct Checked {
            var eventHighWaterMark: Int32
            var commandHighWaterMark: Int32
            var lingerMilliseconds: Int32
            var heartbeatMilliseconds: Int
            var tournamentReadsMegabytesPerSecond: Double
        }

        /// The settings, with the defaults for those the file leaves out, or the key that is wrong.
        func checked(file: String) throws(ConfigurationError) -> Checked {
            func fail(_ key: CodingKeys, _ problem: String) -> ConfigurationError {
                ConfigurationError(file: file, key: "transport.\(key.stringValue)", problem: problem)
            }
            let heartbeat = heartbeatMs ?? DaemonConfiguration.defaultHeartbeatMilliseconds
            guard (10...1000).contains(heartbeat) else {
                throw fail(.heartbeatMs, "must be between 10 and 1000 (a heartbeat at least once a second)")
            }
            for (key, value) in [
                (CodingKeys.eventHighWaterMark, eventHighWaterMark), (.commandHighWaterMark, commandHighWaterMark),
            ] {
                if let value, value < 1 { throw fail(key, "must be at least 1") }
            }
            let tournamentReads = tournamentReadsMbPerS ?? DaemonConfiguration.defaultTournamentReadsMegabytesPerSecond
            guard tournamentReads >= 0, tournamentReads.isFinite else {
                throw fail(.tournamentReadsMbPerS, "must be 0 (no pace) or more")
            }
            // Sockets close at the end of a 2 s shutdown: their linger must leave room for the rest.
            if let lingerMs, !(0...DaemonConfiguration.maxLingerMilliseconds).contains(lingerMs) {
                throw fail(
                    .lingerMs,
                    "must be between 0 and \(DaemonConfiguration.maxLingerMilliseconds) (courtsided stops within 2 s, sockets last)"
                )
            }
            return Checked(
                eventHighWaterMark: eventHighWaterMark ?? TransportConfiguration.defaultEventHighWaterMark,
                commandHighWaterMark: commandHighWaterMark ?? TransportConfiguration.defaultCommandHighWaterMark,
                lingerMilliseconds: lingerMs ?? TransportConfiguration.defaultLingerMilliseconds,
                heartbeatMilliseconds: heartbeat, tournamentReadsMegabytesPerSecond: tournamentReads)
        }
    }
}

/// The sockets are set up at start: a change waits for a restart.
extension RawConfiguration.Transport.CodingKeys: StartOnlyKey {
    func differs(_ a: DaemonConfiguration, _ b: DaemonConfiguration) -> Bool {
        switch self {
        case .eventHighWaterMark: a.eventHighWaterMark != b.eventHighWaterMark
        case .commandHighWaterMark: a.commandHighWaterMark != b.commandHighWaterMark
        case .lingerMs: a.lingerMilliseconds != b.lingerMilliseconds
        case .heartbeatMs: a.heartbeatMilliseconds != b.heartbeatMilliseconds
        case .tournamentReadsMbPerS: a.tournamentReadsMegabytesPerSecond != b.tournamentReadsMegabytesPerSecond
        }
    }
}

extension DaemonConfiguration {
    /// Two heartbeats a second, well inside the once-a-second that `heartbeat_ms` allows at most.
    static let defaultHeartbeatMilliseconds = 500
    /// About two snapshots a second of 10,000 games (10 MB each), 80 of 300 games, for the
    /// displays asking again and again; docs/FIGURES.md has what it costs a keeper.
    public static let defaultTournamentReadsMegabytesPerSecond = 24.0
    /// The longest `transport.linger_ms` that fits in the 2 s shutdown budget after the commits drain.
    public static let maxLingerMilliseconds: Int32 = 500
}
