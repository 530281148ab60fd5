public import CourtsideModel

extension EventPlanner {
    /// Teams listed in the description as registered teams: ids made from names where none is
    /// given (as ``TeamsCSV`` makes them), player ids from players' names, unique in the list.
    /// Throws ``CourtsideError/Code/invalidEvent`` for a name that breaks the ``TextRule``, an
    /// id that is not one, or a team or id listed twice.
    public static func registered(_ listed: [ListedTeam]) throws(EventError) -> [RegisteredTeam] {
        var teamIDs = Set<String>()
        var names = Set<String>()
        var playerIDs = Set<String>()
        var teams: [RegisteredTeam] = []
        for (index, entry) in listed.enumerated() {
            let key = "teams.\(index)"
            if let problem = TextRule.problem(entry.name, as: .line) { throw invalid("\(key).name: \(problem)") }
            if !names.insert(entry.name).inserted { throw invalid("\(key).name: team \(entry.name) is listed twice") }
            let id: String
            if let given = entry.id {
                if let problem = GameSetup.problem(withID: given) { throw invalid("\(key).id: \(problem)") }
                guard teamIDs.insert(given).inserted else { throw invalid("\(key).id: team id \(given) is listed twice") }
                id = given
            } else {
                id = TeamsCSV.unique(TeamsCSV.madeID(entry.name) ?? "team-\(index + 1)", among: &teamIDs)
            }
            var players: [Player] = []
            for (number, name) in entry.players.enumerated() {
                if let problem = TextRule.problem(name, as: .line) { throw invalid("\(key).players.\(number): \(problem)") }
                let base = TeamsCSV.madeID(name) ?? "\(id)-\(number + 1)"
                players.append(Player(id: PlayerID(TeamsCSV.unique(base, among: &playerIDs)), name: name))
            }
            if let seed = entry.seed, seed < 1 { throw invalid("\(key).seed: a seed is 1 (the best) or more") }
            teams.append(
                RegisteredTeam(
                    team: Team(id: TeamID(id), name: entry.name, players: players), seed: entry.seed,
                    rankingPoints: entry.rankingPoints, club: entry.club))
        }
        return teams
    }
}
