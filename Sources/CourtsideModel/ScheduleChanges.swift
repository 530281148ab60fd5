extension GameID {
    /// The log's stream of ``TournamentChange``s: a reserved id, since no game id starts with '_'.
    public static let tournament = GameID("_tournament")
}

extension Schedule {
    /// The schedule after `change`, or why the change cannot be made: `invalid_text` (a text
    /// it stores breaks the ``TextRule``), `unknown_team`, `unknown_player`, `unknown_game`,
    /// `team_exists`, `player_exists`, `game_exists`, `game_started`, `stage_started` (a draw
    /// over a division under way) or `invalid_game`. Pure:
    /// `hasStarted` says which games are under way.
    public func applying(_ change: TournamentChange, hasStarted: (GameID) -> Bool) throws(CourtsideError) -> Schedule {
        try change.checkText()
        return try making(change, hasStarted: hasStarted)
    }

    /// The schedule after `change`, its texts taken as they are (see ``laying(_:)``).
    private func making(_ change: TournamentChange, hasStarted: (GameID) -> Bool) throws(CourtsideError) -> Schedule {
        var next = self
        switch change {
        case .teamRegistered(let team, let group, let division):
            if teams[team.id] != nil { throw CourtsideError(.teamExists, "the tournament has a team with id \(team.id) already") }
            try Self.checkIdentifier(team.id.rawValue, "team")
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
            if let division, self.division(division) == nil {
                throw CourtsideError(
                    .invalidGame,
                    divisions.isEmpty
                        ? "the tournament has no divisions: register team \(team.id) without one"
                        : "the tournament has no division \(division)")
            }
            next.joinDivision(team.id, division: division, group: group)
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
            // A game added without its division takes the one of its teams and slots.
            if game.division == nil { next = next.assigningDivisions() }
        case .drawPublished(let draw):
            return try publishing(draw, hasStarted: hasStarted)
        case .teamWithdrawn(let team):
            guard teams[team] != nil else { throw Self.unknownTeam(team) }
            if withdrawn.contains(team) { throw CourtsideError(.invalidGame, "team \(team) has withdrawn already") }
            next.withdrawn.insert(team)
        case .swissRoundPaired(let pairing):
            return try pairingSwissRound(pairing)
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
    /// Games are taken as not started, and texts as they are: the change was checked when it was
    /// made, and a log written before the ``TextRule`` keeps what it accepted then (the games
    /// created from it exist as they are).
    public func laying(_ changes: [TournamentChange]) -> (schedule: Schedule, conflicts: [LaidChange]) {
        var schedule = self
        var conflicts: [LaidChange] = []
        for change in changes {
            do throws(CourtsideError) {
                schedule = try schedule.making(change) { _ in false }
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
        case .teamRegistered(let team, let group, let division):
            guard teams[team.id] != nil else { return nil }
            next.teams[team.id] = team
            if let group, let index = groups.firstIndex(where: { $0.id == group }), !groups[index].teams.contains(team.id) {
                next.groups[index].teams.append(team.id)
            }
            next.joinDivision(team.id, division: division, group: group)
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
            if game.division == nil { next = next.assigningDivisions() }
            overrode = "the file's game \(game.id)"
        default:
            return nil
        }
        return next.problem == nil ? (next, overrode) : nil
    }

    /// Puts a registered team in `division`, or else in its group's division, if either is one
    /// of the tournament's and the team is in none yet. A group in another division than the
    /// one named is then ``problem``'s to refuse.
    private mutating func joinDivision(_ team: TeamID, division named: String?, group: String?) {
        let division = named ?? group.flatMap { group in groups.first { $0.id == group }?.division }
        guard let division, let index = divisions.firstIndex(where: { $0.id == division }),
            !divisions.contains(where: { $0.teams.contains(team) })
        else { return }
        divisions[index].teams.append(team)
    }

    /// Every player of every team.
    public var players: [PlayerID: TeamID] {
        var players: [PlayerID: TeamID] = [:]
        for team in teams.values { for player in team.players { players[player.id] = team.id } }
        return players
    }

    private func checkNewPlayer(_ player: Player) throws(CourtsideError) {
        try Self.checkIdentifier(player.id.rawValue, "player")
        if let team = players[player.id] {
            throw CourtsideError(.playerExists, "player \(player.id) plays for \(team) already; player ids are the tournament's")
        }
    }

    private static func checkIdentifier(_ id: String, _ what: String) throws(CourtsideError) {
        if let problem = GameSetup.problem(withID: id) {
            throw CourtsideError(.invalidGame, "\(what) id \(id): \(problem)")
        }
    }

    private static func unknownTeam(_ team: TeamID) -> CourtsideError {
        CourtsideError(.unknownTeam, "the tournament has no team with id \(team)")
    }
}

extension TournamentChange {
    /// Refuses the change when a text it would store breaks the ``TextRule``: `invalid_text`,
    /// naming the field ("team owls name", "player dee name", "court", "start", "round").
    public func checkText() throws(CourtsideError) {
        // An id goes in the field's name only when it is one: it may be as bad as the text.
        func named(_ what: String, _ id: String, _ field: String) -> String {
            GameSetup.problem(withID: id) == nil ? "\(what) \(id) \(field)" : "\(what) \(field)"
        }
        switch self {
        case .teamRegistered(let team, let group, let division):
            try TextRule.check(division, as: .line, field: "division")
            try TextRule.check(team.name, as: .line, field: named("team", team.id.rawValue, "name"))
            for player in team.players {
                try TextRule.check(player.name, as: .line, field: named("player", player.id.rawValue, "name"))
            }
            try TextRule.check(group, as: .line, field: "group")
        case .playerAdded(_, let player):
            try TextRule.check(player.name, as: .line, field: named("player", player.id.rawValue, "name"))
        case .playerRenamed(_, let player, let name):
            try TextRule.check(name, as: .line, field: named("player", player.rawValue, "name"))
        case .playerActive:
            break
        case .gameScheduled(let game):
            try TextRule.check(game.court, as: .line, field: "court")
            try TextRule.check(game.start, as: .time, field: "start")
            try TextRule.check(game.round, as: .line, field: "round")
            try TextRule.check(game.group, as: .line, field: "group")
            try TextRule.check(game.rules.preset, as: .line, field: "rules.preset")
        case .gameEdited(let edit):
            try TextRule.check(edit.court, as: .line, field: "court")
            try TextRule.check(edit.start, as: .time, field: "start")
            try TextRule.check(edit.rules?.preset, as: .line, field: "rules.preset")
            try TextRule.check(edit.preset, as: .line, field: "preset")
        case .drawPublished(let draw):
            try draw.checkText()
        case .teamWithdrawn, .swissRoundPaired:
            break
        }
    }

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
