public import CourtsideModel
import Foundation

/// The answer to an applied command: where its last event landed.
public struct Receipt: Hashable, Codable, Sendable {
    public var gameID: GameID
    /// The game's version after the command.
    public var version: Int
    /// The library-wide sequence number of the command's last event.
    public var sequence: Int64

    public init(gameID: GameID, version: Int, sequence: Int64) {
        self.gameID = gameID
        self.version = version
        self.sequence = sequence
    }

    enum CodingKeys: String, CodingKey {
        case gameID = "game"
        case version, sequence
    }
}

/// A committed event and the state of its game right after it.
public struct GameUpdate: Hashable, Sendable {
    public var event: GameEvent
    public var game: Game

    public init(event: GameEvent, game: Game) {
        self.event = event
        self.game = game
    }
}

/// A value read at a consistent point of the log: it reflects every event up to and including
/// `sequence` and none after, so a subscriber applies only events with a greater sequence.
public struct Snapshot<Value: Sendable>: Sendable {
    public var value: Value
    public var sequence: Int64

    public init(value: Value, sequence: Int64) {
        self.value = value
        self.sequence = sequence
    }
}

extension Snapshot: Equatable where Value: Equatable {}

/// The whole tournament at one point of the log: games, group standings and bracket.
public struct TournamentState: Sendable {
    public var games: [Game]
    public var standings: [GroupStandings]
    public var bracket: [BracketEntry]

    public init(games: [Game], standings: [GroupStandings], bracket: [BracketEntry]) {
        self.games = games
        self.standings = standings
        self.bracket = bracket
    }
}

/// The system's wall clock.
public struct SystemTimeSource: TimeSource {
    public init() {}
    public func now() -> Timestamp {
        Timestamp(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }
}
