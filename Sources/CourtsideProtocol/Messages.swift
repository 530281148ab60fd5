public import CourtsideModel
import Foundation

/// What changes with every event: the game without its setup and play-by-play.
public struct LiveState: Hashable, Codable, Sendable {
    public var version: Int
    public var score: SideValues
    public var counts: PlayerCounts
    public var clock: GameClock
    public var status: GameStatus
    public var winner: Side?
    public var endReason: EndReason?
    public var timeExpired: Bool
    public var overtimeTargets: SideValues?
    public var teamFouls: SideValues
    public var timeoutsUsed: SideValues
    /// When the game's first move, time-out or clock start was, and when it ended: what a
    /// court's delay and the day's estimates are worked out from.
    public var startedAt: Timestamp?
    public var endedAt: Timestamp?

    public init(_ game: Game) {
        version = game.version
        score = game.score
        counts = game.counts
        clock = game.clock
        status = game.status
        winner = game.winner
        endReason = game.endReason
        timeExpired = game.timeExpired
        overtimeTargets = game.overtimeTargets
        teamFouls = game.teamFouls
        timeoutsUsed = game.timeoutsUsed
        startedAt = game.startedAt
        endedAt = game.endedAt
    }

    enum CodingKeys: String, CodingKey {
        case version, score, counts, clock, status, winner
        case startedAt = "started_at"
        case endedAt = "ended_at"
        case endReason = "end_reason"
        case timeExpired = "time_expired"
        case overtimeTargets = "overtime_targets"
        case teamFouls = "team_fouls"
        case timeoutsUsed = "timeouts_used"
    }
}

/// Published on `_standings` whenever a result changes a group's table.
public struct StandingsMessage: Hashable, Codable, Sendable {
    public var type = "standings"
    public var epoch: String
    /// The sequence the standings reflect: every event up to it and none after. A display
    /// ignores one older than what it has.
    public var sequence: Int64
    public var groups: [GroupStandings]

    public init(epoch: String, sequence: Int64, groups: [GroupStandings]) {
        self.epoch = epoch
        self.sequence = sequence
        self.groups = groups
    }
}

/// Published on `_bracket` whenever a scheduled game's teams or state change.
public struct BracketMessage: Hashable, Codable, Sendable {
    public var type = "bracket"
    public var epoch: String
    /// The sequence the bracket reflects, as for ``StandingsMessage/sequence``.
    public var sequence: Int64
    public var games: [BracketEntry]

    public init(epoch: String, sequence: Int64, games: [BracketEntry]) {
        self.epoch = epoch
        self.sequence = sequence
        self.games = games
    }
}

/// A committed event as published on the event endpoint.
public struct EventMessage: Hashable, Codable, Sendable {
    public var type = "event"
    public var epoch: String
    public var sequence: Int64
    public var game: GameID
    public var version: Int
    public var at: Timestamp
    public var origin: CommandOrigin
    public var event: GameEvent.Kind
    /// The game right after the event.
    public var state: LiveState

    public init(epoch: String, event: GameEvent, game: Game) {
        self.epoch = epoch
        sequence = event.sequence
        self.game = event.gameID
        version = event.version
        at = event.at
        origin = event.origin
        self.event = event.kind
        state = LiveState(game)
    }
}

/// An organiser's change to the tournament (a team, a player, a scheduled game), published on
/// ``Topic/tournament`` in sequence with the games' events: a display that follows every event
/// counts it (so it sees no gap), and the standings and bracket it changes follow as their own
/// messages. Rare, so written by Foundation's encoder.
public struct TournamentEventMessage: Hashable, Codable, Sendable {
    public var type = "tournament_event"
    public var epoch: String
    public var sequence: Int64
    /// The tournament stream's version: 1, 2, 3, ... with no gaps.
    public var version: Int
    public var at: Timestamp
    public var origin: CommandOrigin
    public var change: TournamentChange
    public var reason: String?

    /// The message of an event of the tournament's stream; nil for any other event.
    public init?(epoch: String, event: GameEvent) {
        guard case .tournamentChanged(let change, let reason) = event.kind else { return nil }
        self.epoch = epoch
        sequence = event.sequence
        version = event.version
        at = event.at
        origin = event.origin
        (self.change, self.reason) = (change, reason)
    }
}

/// Published at least once a second, so that a display that hears nothing still learns what it
/// missed. Its size does not grow with the number of games: each game's version travels in its
/// own ``GameBeatMessage`` instead.
public struct HeartbeatMessage: Hashable, Codable, Sendable {
    public var type = "heartbeat"
    /// The protocol version the daemon speaks (``ProtocolVersion/current``).
    public var `protocol`: Int
    public var epoch: String
    /// The last published sequence.
    public var sequence: Int64
    public var at: Timestamp
    /// The sequence of the last standings published (or of the epoch's first tables): a display
    /// whose copy is older missed one. Absent from daemons older than protocol version 3.
    public var standingsSequence: Int64?
    /// The same for the bracket.
    public var bracketSequence: Int64?

    public init(
        epoch: String, sequence: Int64, at: Timestamp, standingsSequence: Int64? = nil, bracketSequence: Int64? = nil
    ) {
        self.protocol = ProtocolVersion.current
        self.epoch = epoch
        self.sequence = sequence
        self.at = at
        self.standingsSequence = standingsSequence
        self.bracketSequence = bracketSequence
    }

    enum CodingKeys: String, CodingKey {
        case type, `protocol`, epoch, sequence, at
        case standingsSequence = "standings_sequence"
        case bracketSequence = "bracket_sequence"
    }
}

/// One game's last published version, on the game's own topic, so that a display of one game
/// learns of an event it missed even when the game has changed no more since.
///
/// Sent at each of the next ``ProtocolVersion/beatsAfterChange`` heartbeats after a game changes,
/// and for every game in turn over a cycle of ``ProtocolVersion/beatCycleHeartbeats`` heartbeats.
public struct GameBeatMessage: Hashable, Codable, Sendable {
    public var type = "beat"
    public var epoch: String
    public var game: GameID
    public var version: Int

    public init(epoch: String, game: GameID, version: Int) {
        self.epoch = epoch
        self.game = game
        self.version = version
    }
}

/// What changes between versions of the protocol that a display must know about.
public enum ProtocolVersion {
    /// 2: heartbeats no longer list every game's version; game beats carry them.
    /// 3: heartbeats carry the sequences of the last standings and bracket published, so that a
    /// display notices a lost one; a changed game gets a beat at two heartbeats, not one.
    public static let current = 3
    /// A changed game gets a beat at this many heartbeats in a row: a display of one game that
    /// lost the game's last event and one beat as well still learns of it within this many.
    public static let beatsAfterChange = 2
    /// Every game gets a beat at least once in this many heartbeats.
    public static let beatCycleHeartbeats = 20
}

/// A game in one line, as `list_games` returns it.
public struct GameSummary: Hashable, Codable, Sendable {
    public struct TeamName: Hashable, Codable, Sendable {
        public var id: TeamID
        public var name: String
    }

    public var game: GameID
    public var court: String?
    public var home: TeamName
    public var away: TeamName
    public var state: LiveState

    public init(_ game: Game) {
        self.game = game.id
        court = game.setup.court
        home = TeamName(id: game.setup.home.id, name: game.setup.home.name)
        away = TeamName(id: game.setup.away.id, name: game.setup.away.name)
        state = LiveState(game)
    }
}

/// The error object of a failed reply.
public struct ErrorBody: Hashable, Codable, Sendable {
    public var code: CourtsideError.Code
    public var message: String

    public init(_ error: CourtsideError) {
        code = error.code
        message = error.message
    }
}

/// Every reply on the command endpoint. Which optional fields are present depends on the operation.
public struct Reply: Hashable, Codable, Sendable {
    public var ok: Bool
    /// The request's command id, echoed (absent when the request could not be read).
    public var commandID: String?
    public var epoch: String
    public var error: ErrorBody?
    /// For commands: where the command's last event landed.
    public var game: GameID?
    public var version: Int?
    /// For commands, the event's sequence; for reads, the sequence the answer reflects.
    public var sequence: Int64?
    /// For `list_games`.
    public var games: [GameSummary]?
    /// For `snapshot`.
    public var snapshot: [Game]?
    /// For `standings`, and a `snapshot` of every game.
    public var standings: [GroupStandings]?
    /// For `schedule`, and a `snapshot` of every game.
    public var bracket: [BracketEntry]?
    /// For `log`: the game's events, oldest first.
    public var events: [GameEvent]?
    /// For `tournament`: the tournament's setup, as a config file would start it.
    public var tournament: TournamentSetup?

    public init(commandID: String?, epoch: String) {
        ok = true
        self.commandID = commandID
        self.epoch = epoch
    }

    public static func failure(_ error: CourtsideError, commandID: String?, epoch: String) -> Reply {
        var reply = Reply(commandID: commandID, epoch: epoch)
        reply.ok = false
        reply.error = ErrorBody(error)
        return reply
    }

    enum CodingKeys: String, CodingKey {
        case ok, epoch, error, game, version, sequence, games, snapshot, standings, bracket, events, tournament
        case commandID = "command_id"
    }
}

/// Topics of the event endpoint.
public enum Topic {
    /// The topic of a game's events: its id and a slash, so that "g1/" never matches "g10".
    public static func events(of game: GameID) -> [UInt8] { topic(game, "/event") }
    /// The prefix that subscribes to one game's events.
    public static func prefix(of game: GameID) -> [UInt8] { topic(game, "/") }
    /// The topic of a game's beats; `prefix(of:)` subscribes to them with its events.
    public static func beat(of game: GameID) -> [UInt8] { topic(game, "/beat") }

    /// A game's id and `suffix`, copied into an array of their size: an interpolated string
    /// would build a string first, then the array from it.
    private static func topic(_ game: GameID, _ suffix: StaticString) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(game.rawValue.utf8.count + suffix.utf8CodeUnitCount)
        bytes.append(contentsOf: game.rawValue.utf8)
        suffix.withUTF8Buffer { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// The heartbeat's topic; no game id starts with an underscore.
    public static let heartbeat = Array("_heartbeat".utf8)
    /// The standings' topic.
    public static let standings = Array("_standings".utf8)
    /// The bracket's topic.
    public static let bracket = Array("_bracket".utf8)
    /// The topic of the organiser's changes to the tournament (``TournamentEventMessage``).
    public static let tournament = Array("_tournament".utf8)
}

/// JSON coding shared by the daemon and clients.
public enum WireCoding {
    /// The JSON of a message. Our messages hold no floating-point values, so this fails only on
    /// a programming error; callers log it and send nothing in its place.
    ///
    /// A message that is ``JSONWritable`` is written by ``JSONWriter``, which gives the same
    /// bytes as Foundation's encoder below several times faster; any other goes through Foundation.
    public static func encode(_ value: some Encodable) throws -> [UInt8] {
        // The type is checked rather than the value, which would be copied into a box.
        if let writable = type(of: value) as? any JSONWritable.Type { return JSONWriter.json(of: value, as: writable) }
        return Array(try encoder.encode(value))
    }

    /// The JSON of a message that writes its own, by ``JSONWriter``: it cannot fail, and the
    /// type needs no look-up at run time (a reply and an event are written this way each).
    public static func encode(_ value: some Encodable & JSONWritable) -> [UInt8] {
        JSONWriter.written { value.writeJSON(to: &$0) }
    }

    /// Lends `body` the JSON of a message that writes its own, without an array for it (see
    /// ``JSONWriter/withWritten(_:_:)``).
    public static func withEncoded<Result>(
        _ value: some Encodable & JSONWritable, _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result {
        JSONWriter.withWritten({ value.writeJSON(to: &$0) }, body)
    }

    // Configured once and never changed, so one is shared by every thread (it is Sendable).
    // Sorted keys keep the wire output stable for people reading captures.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try JSONDecoder().decode(type, from: Data(bytes))
    }
}
