/// A division of the tournament (Open, Women, U18, ...): its own teams, groups, games,
/// standings and bracket, on the courts every division shares.
///
/// A tournament with no divisions is one division without a name, as before divisions existed.
public struct Division: Hashable, Codable, Sendable {
    public var id: String
    public var name: String
    /// The division's teams; a team is in one division at most.
    public var teams: [TeamID]
    /// How the division's groups break ties; nil: the tournament's.
    public var tieBreakers: [TieBreaker]?

    public init(id: String, name: String? = nil, teams: [TeamID], tieBreakers: [TieBreaker]? = nil) {
        self.id = id
        self.name = name ?? id
        self.teams = teams
        self.tieBreakers = tieBreakers
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, teams
        case tieBreakers = "tie_breakers"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id), name: try container.decodeIfPresent(String.self, forKey: .name),
            teams: try container.decode([TeamID].self, forKey: .teams),
            tieBreakers: try container.decodeIfPresent([TieBreaker].self, forKey: .tieBreakers))
    }
}

extension Schedule {
    /// The division of that id, if any.
    public func division(_ id: String?) -> Division? {
        guard let id else { return nil }
        return divisions.first { $0.id == id }
    }

    /// The tie-breakers of a group's division, or the tournament's.
    public func tieBreakers(for group: Group) -> [TieBreaker] {
        division(group.division)?.tieBreakers ?? tieBreakers
    }

    /// The schedule with every group and game that names no division given the one its teams,
    /// its group or the games and groups its slots wait on belong to: a hand-written config
    /// names the division once, on the division's team list. Nothing changes without divisions.
    public func assigningDivisions() -> Schedule {
        guard !divisions.isEmpty else { return self }
        var schedule = self
        var teamDivision: [TeamID: String] = [:]
        for division in divisions {
            for team in division.teams where teamDivision[team] == nil { teamDivision[team] = division.id }
        }
        for index in schedule.groups.indices where schedule.groups[index].division == nil {
            schedule.groups[index].division = schedule.groups[index].teams.lazy.compactMap { teamDivision[$0] }.first
        }
        var groupDivision: [String: String] = [:]
        for group in schedule.groups { if let division = group.division { groupDivision[group.id] = division } }
        var gameDivision: [GameID: String] = [:]
        for game in schedule.games { if let division = game.division { gameDivision[game.id] = division } }
        func found(_ game: ScheduledGame) -> String? {
            if let group = game.group, let division = groupDivision[group] { return division }
            for slot in [game.home, game.away] {
                switch slot {
                case .team(let team): if let division = teamDivision[team] { return division }
                case .winner(let other), .loser(let other): if let division = gameDivision[other] { return division }
                case .groupRank(let group, _): if let division = groupDivision[group] { return division }
                case .bestOfRank(_, _, let groups):
                    if let division = groups.lazy.compactMap({ groupDivision[$0] }).first { return division }
                case .swissPairing(let group, _, _, _): if let division = groupDivision[group] { return division }
                }
            }
            return nil
        }
        // A knockout waits on games listed before or after it: passes until nothing changes.
        var changed = true
        while changed {
            changed = false
            for index in schedule.games.indices where schedule.games[index].division == nil {
                if let division = found(schedule.games[index]) {
                    schedule.games[index].division = division
                    gameDivision[schedule.games[index].id] = division
                    changed = true
                }
            }
        }
        return schedule
    }

    /// Why the divisions do not hold, or nil: an id twice, an unknown team, a team in two
    /// divisions or in none, a group or game in an unknown division, or one whose teams, group
    /// or slots belong to another division.
    var divisionProblem: String? {
        guard !divisions.isEmpty else {
            if let group = groups.first(where: { $0.division != nil }) {
                return "group \(group.id) names division \(group.division ?? ""), but the tournament has no divisions"
            }
            if let game = games.first(where: { $0.division != nil }) {
                return "game \(game.id) names division \(game.division ?? ""), but the tournament has no divisions"
            }
            return nil
        }
        var teamDivision: [TeamID: String] = [:]
        var ids = Set<String>()
        for division in divisions {
            if division.id.isEmpty { return "a division has an empty id" }
            if !ids.insert(division.id).inserted { return "division \(division.id) is defined twice" }
            for team in division.teams {
                if teams[team] == nil { return "division \(division.id): unknown team \(team)" }
                if let other = teamDivision[team] {
                    return other == division.id
                        ? "division \(division.id) lists team \(team) twice"
                        : "team \(team) is in divisions \(other) and \(division.id)"
                }
                teamDivision[team] = division.id
            }
        }
        if let team = teams.keys.filter({ teamDivision[$0] == nil }).min() {
            return "team \(team) is in no division"
        }
        var groupDivision: [String: String] = [:]
        for group in groups {
            guard let division = group.division else { return "group \(group.id) is in no division" }
            if !ids.contains(division) { return "group \(group.id): unknown division \(division)" }
            if let team = group.teams.first(where: { teamDivision[$0] != division }) {
                return "group \(group.id) is in division \(division), team \(team) in \(teamDivision[team] ?? "none")"
            }
            groupDivision[group.id] = division
        }
        let gameDivision = Dictionary(games.map { ($0.id, $0.division) }, uniquingKeysWith: { first, _ in first })
        for game in games {
            guard let division = game.division else { return "game \(game.id) is in no division" }
            if !ids.contains(division) { return "game \(game.id): unknown division \(division)" }
            func other(_ found: String?) -> String? { found.flatMap { $0 == division ? nil : $0 } }
            if let group = game.group, let found = other(groupDivision[group]) {
                return "game \(game.id) is in division \(division), its group \(group) in \(found)"
            }
            for slot in [game.home, game.away] {
                let elsewhere: String? =
                    switch slot {
                    case .team(let team): other(teamDivision[team])
                    case .winner(let id), .loser(let id): other(gameDivision[id] ?? nil)
                    case .groupRank(let group, _), .swissPairing(let group, _, _, _): other(groupDivision[group])
                    case .bestOfRank(_, _, let groups): groups.lazy.compactMap { other(groupDivision[$0]) }.first
                    }
                if let elsewhere { return "game \(game.id) is in division \(division), its \(slot) in \(elsewhere)" }
            }
        }
        return nil
    }
}
