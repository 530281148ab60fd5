public import CourtsidePostgres

/// Everything courtsided reads from its config file (YAML), after flags are applied.
public struct DaemonConfiguration: Sendable, Equatable {
    /// Directory of the embedded SQLite event log.
    public var dataDirectory: String
    /// The PostgreSQL event log's (`storage.postgresql`); nil keeps the embedded SQLite one.
    public var postgresql: PostgresLogConfiguration?
    public var commandEndpoint: String
    public var eventEndpoint: String
    /// The command endpoint clients reach this daemon at (`endpoints.advertise`), which standby
    /// daemons name in their `not_active` answers; nil names the bound endpoint when it is not a
    /// wildcard.
    public var advertisedEndpoint: String? = nil
    /// Messages queued per display before the daemon drops for it.
    public var eventHighWaterMark: Int32
    /// Messages queued per client on the command endpoint.
    public var commandHighWaterMark: Int32
    /// How long closing sockets may still deliver, in milliseconds.
    public var lingerMilliseconds: Int32
    /// Heartbeat period in milliseconds (at most 1000).
    public var heartbeatMilliseconds: Int
    /// The pace of replies, in MB/s, which whole-tournament reads (a snapshot of every game,
    /// `list_games`, `schedule`) wait for when their client made one in the last 5 s; 0: none.
    public var tournamentReadsMegabytesPerSecond: Double
    /// CURVE and the allowlist; nil serves plaintext, on loopback only unless `--insecure`.
    public var security: SecurityConfiguration?
    public var tournament: TournamentConfiguration

    /// Where the embedded SQLite log lives when neither the file nor a flag says.
    public static let defaultDataDirectory = "data"

    /// The endpoints reachable from other machines: every `tcp://` one whose host is not a
    /// loopback address (`*`, `0.0.0.0`, an interface or a public address).
    public var exposedEndpoints: [String] {
        [commandEndpoint, eventEndpoint].filter { !Self.isLocal($0) }
    }

    /// The keys whose values differ from `other`'s among those read only at start.
    ///
    /// The keys are the file's own (`SettingsNeedingRestart.swift`).
    public func settingsNeedingRestart(comparedWith other: DaemonConfiguration) -> [String] {
        RawConfiguration.CodingKeys.allCases.flatMap { $0.settingsNeedingRestart(self, other) }
    }
}
