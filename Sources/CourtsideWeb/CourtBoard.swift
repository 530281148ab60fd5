import CourtsideModel
import CourtsideProtocol
import CourtsideViewModels

/// One game as the `state` message of `/api/events` carries it: the protocol's `list_games`
/// summary with whole teams (their players name the plays), the rules (foul tiers, time-outs
/// allowed) and the last plays, so a page opened late still shows what happened before.
///
/// The page keeps the same window from each event: a move adds a play and drops the oldest
/// beyond ``recentPlays``, a retraction marks its play (`retracted_by`), as ``Game/apply(_:)``
/// does; so the window is always the last ``recentPlays`` of the game's own play-by-play.
struct CourtGame: Encodable {
    /// How many plays a court's TV shows, retracted ones included (marked).
    static let recentPlays = 10

    var game: Game

    enum CodingKeys: String, CodingKey {
        case game, court, home, away, state, rules, plays
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
    }
}

/// What a court's TV shows of one team besides its score: team fouls against the rules' tiers
/// and the time-outs left. The page's script computes the same from `rules` and each event's
/// state (`sideBoard` in `Resources/static/app.js`): keep the two alike.
struct CourtSideBoard: Equatable {
    var fouls: Int
    /// The tier the team's fouls have reached, nil when the rules have no tiers.
    var tier: FoulPenalty?
    /// "no bonus", "bonus: 2 FT" or "bonus: 2 FT + ball"; empty without tiers.
    var tierText: String
    /// The next tier and where it starts: "2 FT + ball from foul 10"; empty at the last one.
    var nextText: String
    /// "time-outs left" when the rules limit them, else "time-outs used".
    var timeoutsLabel: String
    var timeouts: Int
    /// One dot per time-out allowed: "●" left, "○" used; empty when they are not limited.
    var timeoutPips: String

    init(_ game: Game, _ side: Side) {
        fouls = game.teamFouls[side]
        if let tiers = game.rules.teamFouls {
            let tier = tiers.penalty(after: fouls)
            self.tier = tier
            switch tier {
            case .none:
                tierText = "no bonus"
                nextText = "2 FT from foul \(tiers.freeThrowsFrom)"
            case .twoFreeThrows:
                tierText = "bonus: 2 FT"
                nextText = "2 FT + ball from foul \(tiers.possessionFrom)"
            case .twoFreeThrowsAndPossession:
                tierText = "bonus: 2 FT + ball"
                nextText = ""
            }
        } else {
            tier = nil
            tierText = ""
            nextText = ""
        }
        let used = game.timeoutsUsed[side]
        if let allowed = game.rules.timeoutsPerTeam {
            let left = max(0, allowed - used)
            timeoutsLabel = "time-outs left"
            timeouts = left
            timeoutPips = String(repeating: "●", count: left) + String(repeating: "○", count: allowed - left)
        } else {
            timeoutsLabel = "time-outs used"
            timeouts = used
            timeoutPips = ""
        }
    }
}

extension Play {
    /// How the move reads on a court's TV: as the terminal board and the CLI write it.
    var moveText: String { GameViewModel.moveText(move) }
}
