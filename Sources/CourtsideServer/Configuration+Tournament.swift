import CourtsideLocalization
import CourtsideModel

extension RawConfiguration {
    /// One of `games:` or of a round's `games:`.
    struct RawGame: Decodable {
        var id: String
        var home: Slot
        var away: Slot
        var court: String?
        var group: String?
        var start: String?
        var rules: RuleSpec?
        var division: String?
        var playedIf: PlayCondition?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, home, away, court, group, start, rules, division
            case playedIf = "played_if"
        }
    }

    /// One of `rounds:`: a named round and its games.
    struct RawRound: Decodable {
        var name: String
        var games: [RawGame]

        enum CodingKeys: String, CodingKey, CaseIterable { case name, games }
    }

    /// The order of the standings when the file gives no `tie_breakers:`.
    static let defaultTieBreakers: [TieBreaker] = [.headToHead, .pointDifference, .pointsScored]

    /// The tournament's keys (its name, rules, presets, teams, courts, groups, divisions, rounds,
    /// games and the rest), checked together since they name each other.
    func checkedTournament(file: String) throws(ConfigurationError) -> TournamentConfiguration {
        func fail(_ key: String, _ problem: String) -> ConfigurationError {
            ConfigurationError(file: file, key: key, problem: problem)
        }
        func checkText(_ text: String?, _ key: String) throws(ConfigurationError) {
            try ConfigurationError.checkText(text, key, file: file)
        }
        try checkText(tournament, "tournament")
        let presets = try checkedPresets(file: file)
        let rules = try RuleSpec.resolved(self.rules, "rules", presets, default: .standard, file: file)
        let teams = try checkedTeams(file: file)
        for (index, court) in (courts ?? []).enumerated() { try checkText(court, "courts.\(index)") }
        for (index, group) in (groups ?? []).enumerated() {
            try checkText(group.id, "groups.\(index).id")
            try checkText(group.name, "groups.\(index).name")
        }
        for (index, division) in (divisions ?? []).enumerated() {
            try checkText(division.id, "divisions.\(index).id")
            try checkText(division.name, "divisions.\(index).name")
        }
        for (team, seed) in seeds ?? [:] {
            if teams[team] == nil { throw fail("seeds.\(team)", "unknown team \"\(team)\"") }
            if seed < 1 { throw fail("seeds.\(team)", "a seed is 1 (the best) or more") }
        }
        for (index, round) in (self.rounds ?? []).enumerated() { try checkText(round.name, "rounds.\(index).name") }
        let games = try checkedGames(file: file, teams: teams, presets: presets, rules: rules)
        var schedule = Schedule(
            teams: teams, courts: courts ?? [], groups: groups ?? [], rounds: (self.rounds ?? []).map(\.name), games: games,
            tieBreakers: tieBreakers ?? Self.defaultTieBreakers, inactivePlayers: Set(inactivePlayers ?? []))
        schedule.seeds = seeds ?? [:]
        if let timing, let problem = timing.problem { throw fail("timing", problem) }
        schedule.timing = timing
        for (index, team) in (withdrawn ?? []).enumerated() where teams[team] == nil {
            throw fail("withdrawn.\(index)", "unknown team \"\(team)\"")
        }
        schedule.withdrawn = Set(withdrawn ?? [])
        for (group, byes) in (swissByes ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let members = groups?.first(where: { $0.id == group })?.teams else {
                throw fail("swiss_byes.\(group)", "unknown group \"\(group)\"")
            }
            for (index, team) in byes.enumerated() where !members.contains(team) {
                throw fail("swiss_byes.\(group).\(index)", "team \"\(team)\" is not in group \(group)")
            }
        }
        schedule.swissByes = swissByes ?? [:]
        schedule.divisions = divisions ?? []
        // A group or game names its division only where its teams and slots do not tell.
        schedule = schedule.assigningDivisions()
        if let problem = schedule.problem { throw fail("games", problem) }
        for (index, player) in (inactivePlayers ?? []).enumerated() where schedule.players[player] == nil {
            throw fail("inactive_players.\(index)", "no team has a player \(player)")
        }
        return TournamentConfiguration(
            name: tournament ?? TournamentConfiguration.defaultName, rules: rules, presets: presets, schedule: schedule,
            language: try checkedLanguage(file: file))
    }

    /// `language:`, a language some catalog speaks, refused otherwise with the ones there are.
    private func checkedLanguage(file: String) throws(ConfigurationError) -> String? {
        guard let language else { return nil }
        guard let known = Language(tag: language), Catalogs.catalog(known) != nil else {
            let spoken = Catalogs.languages.map(\.code).joined(separator: ", ")
            throw ConfigurationError(
                file: file, key: "language", problem: "no catalog has \"\(language)\"; Courtside speaks \(spoken)")
        }
        return known.code
    }

    /// `teams:` by id, each with players, none of them on two teams.
    private func checkedTeams(file: String) throws(ConfigurationError) -> [TeamID: Team] {
        func fail(_ key: String, _ problem: String) -> ConfigurationError {
            ConfigurationError(file: file, key: key, problem: problem)
        }
        func checkText(_ text: String?, _ key: String) throws(ConfigurationError) {
            try ConfigurationError.checkText(text, key, file: file)
        }
        var teams: [TeamID: Team] = [:]
        var playerTeams: [PlayerID: TeamID] = [:]
        for (index, team) in (self.teams ?? []).enumerated() {
            if team.id.rawValue.isEmpty { throw fail("teams.\(index).id", "must not be empty") }
            try checkText(team.id.rawValue, "teams.\(index).id")
            try checkText(team.name, "teams.\(index).name")
            if teams[team.id] != nil { throw fail("teams.\(index).id", "team \(team.id) is defined twice") }
            if team.players.isEmpty { throw fail("teams.\(index).players", "team \(team.id) has no players") }
            for (number, player) in team.players.enumerated() {
                try checkText(player.id.rawValue, "teams.\(index).players.\(number).id")
                try checkText(player.name, "teams.\(index).players.\(number).name")
                if let other = playerTeams[player.id] {
                    throw fail("teams.\(index).players.\(number).id", "player \(player.id) is already on team \(other)")
                }
                playerTeams[player.id] = team.id
            }
            teams[team.id] = team
        }
        return teams
    }

    /// `games:` then each round's games, in the file's order: ids unique, teams known, rules
    /// resolved (a game without its own plays `rules`).
    private func checkedGames(file: String, teams: [TeamID: Team], presets: [String: RuleSet], rules: RuleSet)
        throws(ConfigurationError) -> [ScheduledGame]
    {
        func fail(_ key: String, _ problem: String) -> ConfigurationError {
            ConfigurationError(file: file, key: key, problem: problem)
        }
        func checkText(_ text: String?, _ key: String, as kind: TextRule.Kind = .line) throws(ConfigurationError) {
            try ConfigurationError.checkText(text, key, as: kind, file: file)
        }
        var games: [ScheduledGame] = []
        var sections: [(key: String, round: String?, games: [RawGame])] = [("games", nil, self.games ?? [])]
        for (index, round) in (self.rounds ?? []).enumerated() {
            sections.append(("rounds.\(index).games", round.name, round.games))
        }
        for section in sections {
            for (index, game) in section.games.enumerated() {
                let key = "\(section.key).\(index)"
                if let problem = GameSetup.problem(withID: game.id) { throw fail("\(key).id", problem) }
                if games.contains(where: { $0.id.rawValue == game.id }) {
                    throw fail("\(key).id", "game \(game.id) is defined twice")
                }
                try checkText(game.court, "\(key).court")
                try checkText(game.group, "\(key).group")
                try checkText(game.division, "\(key).division")
                try checkText(game.start, "\(key).start", as: .time)
                for (side, slot) in [("home", game.home), ("away", game.away)] {
                    if case .team(let team) = slot, teams[team] == nil {
                        throw fail("\(key).\(side)", "unknown team \"\(team)\"")
                    }
                }
                games.append(
                    ScheduledGame(
                        id: GameID(game.id), home: game.home, away: game.away, court: game.court, group: game.group,
                        round: section.round, start: game.start,
                        rules: try RuleSpec.resolved(game.rules, "\(key).rules", presets, default: rules, file: file),
                        division: game.division, playedIf: game.playedIf))
            }
        }
        return games
    }
}
