extension GameID {
    /// The log's stream of ``TournamentChange``s: a reserved id, since no game id starts with '_'.
    public static let tournament = GameID("_tournament")
}

extension Schedule {
    /// The longest name a team or player may have.
    public static let maxNameLength = 80

    /// The schedule after `change`, or why the change cannot be made: `unknown_team`,
    /// `unknown_player`, `unknown_game`, `team_exists`, `player_exists`, `game_exists`,
    /// `game_started` or `invalid_game`. Pure: `hasStarted` says which games are under way.
    public func applying(_ change: TournamentChange, hasStarted: (GameID) -> Bool) throws(CourtsideError) -> Schedule {
        var next = self
        switch change {
        case .teamRegistered(let team, let group):
            if teams[team.id] != nil { throw CourtsideError(.teamExists, "the tournament has a team with id \(team.id) already") }
            try Self.checkIdentifier(team.id.rawValue, "team")
            try Self.checkName(team.name, of: "team \(team.id)")
            if team.players.isEmpty { throw CourtsideError(.invalidGame, "team \(team.id) has no players") }
            var seen = Set<PlayerID>()
            for player in team.players {
                try checkNewPlayer(player)
                if !seen.insert(player.id).inserted { throw CourtsideError(.playerExists, "player \(player.id) appears twice") }
            }
            next.teams[team.id] = team
            if let group {
                guard let index = groups.firstIndex(where: { $0.id == group }) else {
                    throw CourtsideError(.invalidGame, "the tournament has no group \(group)")
                }
                next.groups[index].teams.append(team.id)
            }
        case .playerAdded(let team, let player):
            guard var roster = teams[team] else { throw Self.unknownTeam(team) }
            try checkNewPlayer(player)
            roster.players.append(player)
            next.teams[team] = roster
        case .playerRenamed(let team, let player, let name):
            guard var roster = teams[team] else { throw Self.unknownTeam(team) }
            guard let index = roster.players.firstIndex(where: { $0.id == player }) else {
                throw CourtsideError(.unknownPlayer, "team \(team) has no player with id \(player)")
            }
            try Self.checkName(name, of: "player \(player)")
            roster.players[index].name = name
            next.teams[team] = roster
        case .playerActive(let team, let player, let active):
            guard let roster = teams[team] else { throw Self.unknownTeam(team) }
            guard roster.has(player) else { throw CourtsideError(.unknownPlayer, "team \(team) has no player with id \(player)") }
            if active { next.inactivePlayers.remove(player) } else { next.inactivePlayers.insert(player) }
        case .gameScheduled(let game):
            if self.game(game.id) != nil || hasStarted(game.id) {
                throw CourtsideError(.gameExists, "a game with id \(game.id) exists already")
            }
            if let round = game.round, !rounds.contains(round) { next.rounds.append(round) }
            next.games.append(game)
        case .gameEdited(let edit):
            guard let index = games.firstIndex(where: { $0.id == edit.game }) else {
                throw CourtsideError(.unknownGame, "the schedule has no game \(edit.game)")
            }
            if edit.isEmpty { throw CourtsideError(.invalidGame, "the edit of game \(edit.game) changes nothing") }
            if hasStarted(edit.game) {
                throw CourtsideError(.gameStarted, "game \(edit.game) has started: it can no longer be moved or changed")
            }
            var game = games[index]
            for (slot, now) in [(edit.home, game.home), (edit.away, game.away)] where slot != nil {
                guard case .team = now, case .team = slot else {
                    throw CourtsideError(
                        .invalidGame,
                        "game \(edit.game): the results fill a slot that is not a team; only a team can replace a team")
                }
            }
            if let court = edit.court { game.court = court }
            if let start = edit.start { game.start = start }
            if let rules = edit.rules { game.rules = rules }
            if let home = edit.home { game.home = home }
            if let away = edit.away { game.away = away }
            next.games[index] = game
        }
        if let problem = next.problem { throw CourtsideError(.invalidGame, problem) }
        if let rules = change.rulesSet, let problem = rules.problem { throw CourtsideError(.invalidGame, problem) }
        if let game = change.game, let scheduled = next.game(game) {
            if case .team(let home) = scheduled.home, case .team(let away) = scheduled.away, home == away {
                throw CourtsideError(.invalidGame, "game \(game): team \(home) cannot play itself")
            }
        }
        return next
    }

    /// The schedule with `changes` (the log's, each accepted when made) laid in order over this
    /// one (the config's), and what each did that the file disagrees with: the log decides.
    ///
    /// A change the file now contradicts wins over the file: a team or game the file has since
    /// added under the same id is replaced by the organiser's, a player the file has since put
    /// on another team moves to the organiser's team. Each such case is a ``LaidChange`` with
    /// `overrode` set; one that cannot apply at all (its team is gone) has `error` set instead.
    /// Games are taken as not started: the change was checked when it was made.
    public func laying(_ changes: [TournamentChange]) -> (schedule: Schedule, conflicts: [LaidChange]) {
        var schedule = self
        var conflicts: [LaidChange] = []
        for change in changes {
            do throws(CourtsideError) {
                schedule = try schedule.applying(change) { _ in false }
            } catch {
                if let (forced, overrode) = schedule.forcing(change) {
                    schedule = forced
                    conflicts.append(LaidChange(change: change, overrode: overrode, error: nil))
                } else {
                    conflicts.append(LaidChange(change: change, overrode: nil, error: error))
                }
            }
        }
        return (schedule, conflicts)
    }

    /// The schedule with `change` made over what the file says, and what of the file's it
    /// replaced; nil when the change cannot be made even so.
    private func forcing(_ change: TournamentChange) -> (Schedule, String)? {
        var next = self
        let overrode: String
        switch change {
        case .teamRegistered(let team, let group):
            guard teams[team.id] != nil else { return nil }
            next.teams[team.id] = team
            if let group, let index = groups.firstIndex(where: { $0.id == group }), !groups[index].teams.contains(team.id) {
                next.groups[index].teams.append(team.id)
            }
            overrode = "the file's team \(team.id)"
        case .playerAdded(let team, let player):
            guard teams[team] != nil, let other = players[player.id] else { return nil }
            next.teams[other]?.players.removeAll { $0.id == player.id }
            next.teams[team]?.players.append(player)
            overrode = "the file's player \(player.id) of \(other)"
        case .gameScheduled(let game):
            guard let index = games.firstIndex(where: { $0.id == game.id }) else { return nil }
            next.games[index] = game
            if let round = game.round, !rounds.contains(round) { next.rounds.append(round) }
            overrode = "the file's game \(game.id)"
        default:
            return nil
        }
        return next.problem == nil ? (next, overrode) : nil
    }

    /// Every player of every team.
    public var players: [PlayerID: TeamID] {
        var players: [PlayerID: TeamID] = [:]
        for team in teams.values { for player in team.players { players[player.id] = team.id } }
        return players
    }

    private func checkNewPlayer(_ player: Player) throws(CourtsideError) {
        try Self.checkIdentifier(player.id.rawValue, "player")
        try Self.checkName(player.name, of: "player \(player.id)")
        if let team = players[player.id] {
            throw CourtsideError(.playerExists, "player \(player.id) plays for \(team) already; player ids are the tournament's")
        }
    }

    private static func checkIdentifier(_ id: String, _ what: String) throws(CourtsideError) {
        if let problem = GameSetup.problem(withID: id) {
            throw CourtsideError(.invalidGame, "\(what) id \(id): \(problem)")
        }
    }

    private static func checkName(_ name: String, of what: String) throws(CourtsideError) {
        if name.allSatisfy(\.isWhitespace) { throw CourtsideError(.invalidGame, "\(what) needs a name") }
        if name.count > maxNameLength {
            throw CourtsideError(.invalidGame, "\(what): a name has at most \(maxNameLength) characters")
        }
    }

    private static func unknownTeam(_ team: TeamID) -> CourtsideError {
        CourtsideError(.unknownTeam, "the tournament has no team with id \(team)")
    }
}

extension TournamentChange {
    /// The rules the change sets, if any.
    fileprivate var rulesSet: RuleSet? {
        switch self {
        case .gameScheduled(let game): game.rules
        case .gameEdited(let edit): edit.rules
        default: nil
        }
    }
}

/// A change of the log laid over a config file that disagrees with it (see
/// ``Schedule/laying(_:)``): kept over the file (`overrode` says what of the file's it replaced),
/// or not applied at all (`error` says why).
public struct LaidChange: Hashable, Sendable {
    public var change: TournamentChange
    public var overrode: String?
    public var error: CourtsideError?
}
