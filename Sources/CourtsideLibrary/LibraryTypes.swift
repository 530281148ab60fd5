public import CourtsideModel
import Foundation
import HashTreeCollections
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

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

/// Wraps the answering of one commit's commands: calls its argument once, at once, on the
/// calling thread (see ``GameLibrary/answerCommits(within:)``).
public typealias AnsweringScope = @Sendable (() -> Void) -> Void

/// A committed event and the state of its game right after it.
public struct GameUpdate: Hashable, Sendable {
    public var event: GameEvent
    public var game: Game

    public init(event: GameEvent, game: Game) {
        self.event = event
        self.game = game
    }
}

/// One commit as ``GameLibrary/commits(bufferLimit:)`` hands it over.
public struct Commit: Sendable {
    /// Its games' events, each with its game's state, in sequence order.
    public var updates: [GameUpdate]
    /// Its tournament changes (events of ``GameID/tournament``, which change no game), in
    /// sequence order; usually none.
    public var tournament: [GameEvent]

    public init(updates: [GameUpdate], tournament: [GameEvent] = []) {
        self.updates = updates
        self.tournament = tournament
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

/// Every committed game at one point of the log, in order of their ids.
///
/// It shares the library's persistent map of games: taking one copies no game, and reading a
/// game's version copies none either, which lets a cache of encoded games check 10,000 games
/// in a snapshot for the price of the look-ups.
public struct CommittedGames: Sendable {
    let byID: TreeDictionary<GameID, Game>
    /// Every game's id, in order.
    public let ids: [GameID]

    init(byID: TreeDictionary<GameID, Game>, ids: [GameID]) {
        self.byID = byID
        self.ids = ids
    }

    /// The game with this id.
    public subscript(id: GameID) -> Game? { byID[id] }

    /// The version of the game with this id.
    public func version(of id: GameID) -> Int? { byID[id]?.version }

    /// The games in order of their ids.
    public var sorted: [Game] { ids.compactMap { byID[$0] } }
}

/// The whole tournament at one point of the log: games, group standings and bracket.
public struct TournamentState: Sendable {
    public var games: CommittedGames
    public var standings: [GroupStandings]
    public var bracket: [BracketEntry]

    public init(games: CommittedGames, standings: [GroupStandings], bracket: [BracketEntry]) {
        self.games = games
        self.standings = standings
        self.bracket = bracket
    }
}

/// The daemon's time: the wall clock read once, then advanced by the monotonic clock.
///
/// Game clocks subtract timestamps, so a step of the wall clock (NTP, an operator setting the
/// time) or a wall clock that runs fast or slow would end timed games early or late, durably.
/// Anchoring once keeps timestamps readable as wall time while only real elapsed time counts.
public final class SystemTimeSource: TimeSource {
    private let monotonic: @Sendable () -> Duration
    private let anchor: Mutex<(wall: Timestamp, monotonic: Duration)>
    private let wall: @Sendable () -> Timestamp

    /// Reads `wall` once now; later times advance by `monotonic`. Both are injectable for tests.
    public init(
        wall: @escaping @Sendable () -> Timestamp = SystemTimeSource.wallClock,
        monotonic: @escaping @Sendable () -> Duration = SystemTimeSource.monotonicClock
    ) {
        self.wall = wall
        self.monotonic = monotonic
        anchor = Mutex((wall(), monotonic()))
    }

    public func now() -> Timestamp {
        let (wall, start) = anchor.withLock { $0 }
        return wall.adding(milliseconds: Int64((monotonic() - start).inMilliseconds))
    }

    /// Moves this clock forward, if needed, so that it reads no earlier than `floor` (the log's
    /// last event: time never runs backwards across a restart, even if the wall clock did).
    /// Returns how many milliseconds it moved, or nil when it was already past.
    public func hold(notBefore floor: Timestamp) -> Int64? {
        let behind = floor.rawValue - now().rawValue
        guard behind > 0 else { return nil }
        anchor.withLock { $0.wall = $0.wall.adding(milliseconds: behind) }
        return behind
    }

    /// The wall clock minus this clock, in milliseconds: how far the wall clock has stepped or
    /// drifted since the start.
    public var wallClockOffset: Int64 { wall().rawValue - now().rawValue }

    /// The system's wall clock, to the millisecond.
    public static let wallClock: @Sendable () -> Timestamp = {
        Timestamp(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// CLOCK_MONOTONIC: never stepped, and not slewed by a fake or drifting wall clock.
    public static let monotonicClock: @Sendable () -> Duration = {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return .seconds(Int64(spec.tv_sec)) + .nanoseconds(Int64(spec.tv_nsec))
    }
}
