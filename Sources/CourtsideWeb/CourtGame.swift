import CourtsideClient
import CourtsideLocalization
import CourtsideModel
import CourtsideProtocol
import CourtsideViewModels

/// One game as the `state` message of `/api/events` carries it: the protocol's `list_games`
/// summary with whole teams (their players name the plays), the rules (foul tiers, time-outs
/// allowed) and the last plays, so a program that opened late still knows what happened before;
/// and `view`, the game's ``GameViewModel``, which the pages bind.
///
/// A program keeps the same window from each event: a move adds a play and drops the oldest
/// beyond ``recentPlays``, a retraction marks its play (`retracted_by`), as ``Game/apply(_:)``
/// does; so the window is always the last ``recentPlays`` of the game's own play-by-play.
struct CourtGame: Encodable {
    /// How many plays a court's TV shows, retracted ones included (marked).
    static let recentPlays = 10

    var game: Game
    var view: GameViewModel

    /// `game` with its view at `now` (the daemon's time), `inactive` players marked so.
    /// `words`: the language of its view.
    init(_ game: Game, now: Timestamp, inactive: Set<PlayerID> = [], words: Words = .english) {
        self.game = game
        view = GameViewModel(game, now: now, inactive: inactive, words: words)
    }

    enum CodingKeys: String, CodingKey {
        case game, court, home, away, state, rules, plays, view
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(game.id, forKey: .game)
        try container.encodeIfPresent(game.setup.court, forKey: .court)
        // Whole teams, as `game_created` and `teams_assigned` carry them.
        try container.encode(game.setup.home, forKey: .home)
        try container.encode(game.setup.away, forKey: .away)
        try container.encode(LiveState(game), forKey: .state)
        try container.encode(game.rules, forKey: .rules)
        try container.encode(Array(game.plays.suffix(Self.recentPlays)), forKey: .plays)
        try container.encode(view, forKey: .view)
    }
}

/// One relayed event as `/api/events` sends it: the daemon's own event message, every field as
/// docs/PROTOCOL.md has it, and `view`, the game's ``GameViewModel`` right after the event.
struct RelayedEvent: Encodable {
    var message: EventMessage
    var view: GameViewModel

    private enum CodingKeys: String, CodingKey { case view }

    func encode(to encoder: any Encoder) throws {
        try message.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(view, forKey: .view)
    }
}

extension GameViewModel {
    /// What the pages show of `game` at `now`: its last ``CourtGame/recentPlays`` plays.
    init(_ game: Game, now: Timestamp, inactive: Set<PlayerID> = [], words: Words = .english) {
        self.init(GameState(game), now: now, lastPlays: CourtGame.recentPlays, inactive: inactive, words: words)
    }
}
