/// Who sent a command: the scorekeeper's client id and the id it gave the command.
///
/// The pair identifies a command for ever; a repeated pair is a retry and is answered with the
/// original result.
public struct CommandOrigin: Hashable, Codable, Sendable {
    public var clientID: String
    public var commandID: String

    public init(clientID: String, commandID: String) {
        self.clientID = clientID
        self.commandID = commandID
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case commandID = "command_id"
    }

    /// Whether a client id is one the daemon keeps for its own commands: `courtside` and
    /// everything under `courtside.` (the bracket, time running out). Clients may not use them,
    /// or they could answer the daemon's own commands in advance through the retry memory.
    public static func isReserved(clientID: String) -> Bool {
        clientID == "courtside" || clientID.hasPrefix("courtside.")
    }
}

/// One committed fact about a game: the unit of the durable log and of every subscription.
public struct GameEvent: Hashable, Codable, Sendable {
    /// What happened.
    public enum Kind: Hashable, Sendable {
        /// The game was created; always version 1.
        case gameCreated(GameSetup)
        /// A player made a move.
        case move(player: PlayerID, move: MoveKind)
        /// An earlier move, named by its version, no longer counts; the organiser's correction
        /// of a finished game says why.
        case retraction(targetVersion: Int, reason: String? = nil)
        case clockStarted
        case clockPaused
        /// Regulation time ran out (detected at the event's time; the clock reads the limit).
        case timeExpired
        /// A team called a time-out; a running clock stops.
        case timeout(side: Side)
        /// The bracket filled (or changed) the teams of a game that has not started, or the
        /// organiser changed a roster (a player added or renamed), which may happen in play.
        case teamsAssigned(home: Team, away: Team)
        /// The organiser moved a game that has not started to another court, or changed its rules.
        case setupChanged(court: String?, rules: RuleSet)
        /// A change to the tournament, in the log's tournament stream (``GameID/tournament``).
        /// Boxed: inline, its change made every event 296 bytes where the others need under
        /// 100, and a move's event is moved and copied whole many times on its way (its
        /// memcpy 3% of the pool's samples in the game actor's decide alone, under
        /// `courtside-bench daemon`); a tournament change is rare, and pays an allocation.
        indirect case tournamentChanged(TournamentChange, reason: String?)
        /// The organiser recorded that a team forfeits: the game ends with the rules' forfeit result.
        case forfeit(side: Side, reason: String?)
        /// The organiser ended the game early (abandoned), with its score or with no result.
        case ended(result: EarlyResult, reason: String)
    }

    public var gameID: GameID
    /// Position in the game's own history: 1, 2, 3, ... with no gaps.
    public var version: Int
    /// Position across the whole library: no gaps across all games. Zero until committed.
    public var sequence: Int64
    /// When the library accepted the command.
    public var at: Timestamp
    public var origin: CommandOrigin
    public var kind: Kind

    public init(gameID: GameID, version: Int, sequence: Int64 = 0, at: Timestamp, origin: CommandOrigin, kind: Kind) {
        self.gameID = gameID
        self.version = version
        self.sequence = sequence
        self.at = at
        self.origin = origin
        self.kind = kind
    }

    enum CodingKeys: String, CodingKey {
        case gameID = "game"
        case version, sequence, at, origin, kind
    }
}

extension GameEvent.Kind: Codable {
    /// The `type` of the kind on the wire and in the log.
    public var typeName: String {
        switch self {
        case .gameCreated: "game_created"
        case .move: "move"
        case .retraction: "retraction"
        case .clockStarted: "clock_started"
        case .clockPaused: "clock_paused"
        case .timeExpired: "time_expired"
        case .timeout: "timeout"
        case .teamsAssigned: "teams_assigned"
        case .forfeit: "forfeit"
        case .ended: "ended"
        case .setupChanged: "setup_changed"
        case .tournamentChanged: "tournament_changed"
        }
    }

    enum CodingKeys: String, CodingKey {
        case type, setup, player, move, side, home, away, reason, result, court, rules, change
        case targetVersion = "target_version"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "game_created": self = .gameCreated(try container.decode(GameSetup.self, forKey: .setup))
        case "move":
            self = .move(
                player: try container.decode(PlayerID.self, forKey: .player),
                move: try container.decode(MoveKind.self, forKey: .move)
            )
        case "retraction":
            self = .retraction(
                targetVersion: try container.decode(Int.self, forKey: .targetVersion),
                reason: try container.decodeIfPresent(String.self, forKey: .reason))
        case "clock_started": self = .clockStarted
        case "clock_paused": self = .clockPaused
        case "time_expired": self = .timeExpired
        case "timeout": self = .timeout(side: try container.decode(Side.self, forKey: .side))
        case "teams_assigned":
            self = .teamsAssigned(
                home: try container.decode(Team.self, forKey: .home), away: try container.decode(Team.self, forKey: .away))
        case "forfeit":
            self = .forfeit(
                side: try container.decode(Side.self, forKey: .side),
                reason: try container.decodeIfPresent(String.self, forKey: .reason))
        case "ended":
            self = .ended(
                result: try container.decode(EarlyResult.self, forKey: .result),
                reason: try container.decode(String.self, forKey: .reason))
        case "setup_changed":
            self = .setupChanged(
                court: try container.decodeIfPresent(String.self, forKey: .court),
                rules: try container.decode(RuleSet.self, forKey: .rules))
        case "tournament_changed":
            self = .tournamentChanged(
                try container.decode(TournamentChange.self, forKey: .change),
                reason: try container.decodeIfPresent(String.self, forKey: .reason))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown event type \(type)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(typeName, forKey: .type)
        switch self {
        case .gameCreated(let setup): try container.encode(setup, forKey: .setup)
        case .move(let player, let move):
            try container.encode(player, forKey: .player)
            try container.encode(move, forKey: .move)
        case .retraction(let version, let reason):
            try container.encode(version, forKey: .targetVersion)
            try container.encodeIfPresent(reason, forKey: .reason)
        case .timeout(let side): try container.encode(side, forKey: .side)
        case .teamsAssigned(let home, let away):
            try container.encode(home, forKey: .home)
            try container.encode(away, forKey: .away)
        case .forfeit(let side, let reason):
            try container.encode(side, forKey: .side)
            try container.encodeIfPresent(reason, forKey: .reason)
        case .ended(let result, let reason):
            try container.encode(result, forKey: .result)
            try container.encode(reason, forKey: .reason)
        case .setupChanged(let court, let rules):
            try container.encodeIfPresent(court, forKey: .court)
            try container.encode(rules, forKey: .rules)
        case .tournamentChanged(let change, let reason):
            try container.encode(change, forKey: .change)
            try container.encodeIfPresent(reason, forKey: .reason)
        case .clockStarted, .clockPaused, .timeExpired: break
        }
    }
}
