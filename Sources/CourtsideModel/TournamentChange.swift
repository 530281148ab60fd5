/// A change the organiser makes to the tournament itself rather than to one game's play: who
/// plays, and when and where the schedule's games are. Each is an event of the log's tournament
/// stream (``GameID/tournament``), so the log, not the config file, has the last word.
public enum TournamentChange: Hashable, Sendable {
    /// A team joins the tournament, in a group when one is named, and in a division when the
    /// tournament has divisions (named, or the group's).
    case teamRegistered(Team, group: String?, division: String? = nil)
    /// A player joins a team: a late arrival who was not on the roster.
    case playerAdded(team: TeamID, player: Player)
    /// A player's name is corrected; the id, and so every move, stays.
    case playerRenamed(team: TeamID, player: PlayerID, name: String)
    /// A player is marked inactive (no more moves; their moves so far stay), or active again.
    /// Nobody is removed: a player with moves keeps them in every record.
    case playerActive(team: TeamID, player: PlayerID, active: Bool)
    /// A game joins the schedule (its round, court and start time are the game's own fields).
    case gameScheduled(ScheduledGame)
    /// A scheduled game that has not started moves court, is re-timed, or changes rules or teams.
    case gameEdited(GameEdit)
    /// A whole draw published at once: divisions (or the tournament of one) with their teams,
    /// groups and games, replacing a division of the same id that has not started.
    case drawPublished(PublishedDraw)
    /// A team withdraws: its games not over are forfeited, those it plays now and those the
    /// results bring it into. Its results so far stand.
    case teamWithdrawn(TeamID)
    /// A Swiss round paired by the daemon once the rounds before it were final: its games take
    /// their teams, and those the round does not need (a team withdrew) leave the schedule.
    case swissRoundPaired(SwissRoundPairing)

    /// The `type` of the change on the wire and in the log.
    public var typeName: String {
        switch self {
        case .teamRegistered: "team_registered"
        case .playerAdded: "player_added"
        case .playerRenamed: "player_renamed"
        case .playerActive: "player_active"
        case .gameScheduled: "game_scheduled"
        case .gameEdited: "game_edited"
        case .drawPublished: "draw_published"
        case .teamWithdrawn: "team_withdrawn"
        case .swissRoundPaired: "swiss_round_paired"
        }
    }

    /// The game the change is about, if it is about one.
    public var game: GameID? {
        switch self {
        case .gameScheduled(let game): game.id
        case .gameEdited(let edit): edit.game
        default: nil
        }
    }

    /// What the change is about, in a few words for a log line: "player dee of lions", "game g4".
    public var subject: String {
        switch self {
        case .teamRegistered(let team, _, _): "team \(team.id)"
        case .playerAdded(let team, let player): "player \(player.id) of \(team)"
        case .playerRenamed(let team, let player, _), .playerActive(let team, let player, _): "player \(player) of \(team)"
        case .gameScheduled(let game): "game \(game.id)"
        case .gameEdited(let edit): "game \(edit.game)"
        case .drawPublished(let draw): "the draw of \(draw.subject)"
        case .teamWithdrawn(let team): "team \(team)"
        case .swissRoundPaired(let pairing): "round \(pairing.round) of group \(pairing.group)"
        }
    }

    /// The team the change is about, if it is about one.
    public var team: TeamID? {
        switch self {
        case .teamRegistered(let team, _, _): team.id
        case .playerAdded(let team, _), .playerRenamed(let team, _, _), .playerActive(let team, _, _): team
        case .teamWithdrawn(let team): team
        default: nil
        }
    }
}

/// What an edit of a scheduled game changes: every field left nil stays as it is.
public struct GameEdit: Hashable, Codable, Sendable {
    public var game: GameID
    public var court: String?
    /// When the game is due, as the organiser writes it ("10:50").
    public var start: String?
    public var rules: RuleSet?
    /// A team for a slot the bracket does not fill.
    public var home: Slot?
    public var away: Slot?
    /// A rules preset named by the organiser: the daemon resolves it into ``rules`` before the
    /// change is made, so the log never holds a name whose meaning a config could change.
    public var preset: String?

    public init(
        game: GameID, court: String? = nil, start: String? = nil, rules: RuleSet? = nil, home: Slot? = nil, away: Slot? = nil,
        preset: String? = nil
    ) {
        self.game = game
        self.court = court
        self.start = start
        self.rules = rules
        self.home = home
        self.away = away
        self.preset = preset
    }

    /// Whether the edit changes anything at all.
    public var isEmpty: Bool { court == nil && start == nil && rules == nil && home == nil && away == nil && preset == nil }
}

extension TournamentChange: Codable {
    enum CodingKeys: String, CodingKey {
        case type, team, group, player, name, game, edit, active, division, draw, pairing
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .type) {
        case "team_registered":
            self = .teamRegistered(
                try container.decode(Team.self, forKey: .team), group: try container.decodeIfPresent(String.self, forKey: .group),
                division: try container.decodeIfPresent(String.self, forKey: .division))
        case "player_added":
            self = .playerAdded(
                team: try container.decode(TeamID.self, forKey: .team), player: try container.decode(Player.self, forKey: .player)
            )
        case "player_renamed":
            self = .playerRenamed(
                team: try container.decode(TeamID.self, forKey: .team),
                player: try container.decode(PlayerID.self, forKey: .player),
                name: try container.decode(String.self, forKey: .name))
        case "player_active":
            self = .playerActive(
                team: try container.decode(TeamID.self, forKey: .team),
                player: try container.decode(PlayerID.self, forKey: .player),
                active: try container.decode(Bool.self, forKey: .active))
        case "game_scheduled": self = .gameScheduled(try container.decode(ScheduledGame.self, forKey: .game))
        case "game_edited": self = .gameEdited(try container.decode(GameEdit.self, forKey: .edit))
        case "draw_published": self = .drawPublished(try container.decode(PublishedDraw.self, forKey: .draw))
        case "team_withdrawn": self = .teamWithdrawn(try container.decode(TeamID.self, forKey: .team))
        case "swiss_round_paired": self = .swissRoundPaired(try container.decode(SwissRoundPairing.self, forKey: .pairing))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown tournament change \(other)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(typeName, forKey: .type)
        switch self {
        case .teamRegistered(let team, let group, let division):
            try container.encode(team, forKey: .team)
            try container.encodeIfPresent(group, forKey: .group)
            try container.encodeIfPresent(division, forKey: .division)
        case .playerAdded(let team, let player):
            try container.encode(team, forKey: .team)
            try container.encode(player, forKey: .player)
        case .playerRenamed(let team, let player, let name):
            try container.encode(team, forKey: .team)
            try container.encode(player, forKey: .player)
            try container.encode(name, forKey: .name)
        case .playerActive(let team, let player, let active):
            try container.encode(active, forKey: .active)
            try container.encode(team, forKey: .team)
            try container.encode(player, forKey: .player)
        case .gameScheduled(let game): try container.encode(game, forKey: .game)
        case .gameEdited(let edit): try container.encode(edit, forKey: .edit)
        case .drawPublished(let draw): try container.encode(draw, forKey: .draw)
        case .teamWithdrawn(let team): try container.encode(team, forKey: .team)
        case .swissRoundPaired(let pairing): try container.encode(pairing, forKey: .pairing)
        }
    }
}
