/// One team's line in a group table.
public struct StandingRow: Hashable, Codable, Sendable {
    public var team: TeamID
    public var name: String
    public var played = 0
    public var won = 0
    public var lost = 0
    public var pointsFor = 0
    public var pointsAgainst = 0
    public var difference: Int { pointsFor - pointsAgainst }
    /// 1 for the leader.
    public var rank = 0

    public init(team: TeamID, name: String) {
        self.team = team
        self.name = name
    }

    enum CodingKeys: String, CodingKey {
        case team, name, played, won, lost, rank, difference
        case pointsFor = "points_for"
        case pointsAgainst = "points_against"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        team = try container.decode(TeamID.self, forKey: .team)
        name = try container.decode(String.self, forKey: .name)
        played = try container.decode(Int.self, forKey: .played)
        won = try container.decode(Int.self, forKey: .won)
        lost = try container.decode(Int.self, forKey: .lost)
        pointsFor = try container.decode(Int.self, forKey: .pointsFor)
        pointsAgainst = try container.decode(Int.self, forKey: .pointsAgainst)
        rank = try container.decode(Int.self, forKey: .rank)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(team, forKey: .team)
        try container.encode(name, forKey: .name)
        try container.encode(played, forKey: .played)
        try container.encode(won, forKey: .won)
        try container.encode(lost, forKey: .lost)
        try container.encode(pointsFor, forKey: .pointsFor)
        try container.encode(pointsAgainst, forKey: .pointsAgainst)
        try container.encode(difference, forKey: .difference)
        try container.encode(rank, forKey: .rank)
    }
}

/// A group's table, best first.
public struct GroupStandings: Hashable, Codable, Sendable {
    public var group: String
    public var name: String
    /// The group's division, nil when the tournament has none.
    public var division: String?
    public var rows: [StandingRow]
    /// Whether every scheduled game of the group is final, which fixes the ranks for the bracket.
    public var complete: Bool

    public init(group: String, name: String, rows: [StandingRow], complete: Bool, division: String? = nil) {
        self.group = group
        self.division = division
        self.name = name
        self.rows = rows
        self.complete = complete
    }
}

extension Schedule {
    /// Every group's standings from the final games among `games`; live games do not count
    /// until they end. Ties on wins are broken by the tie-breakers in order, then by team id.
    public func standings(_ games: some GamesByID) -> [GroupStandings] {
        // Grouped once: a filter per group read every game for each of hundreds of groups.
        let byGroup = Dictionary(grouping: self.games.filter { $0.group != nil }, by: \.group)
        return groups.map { group in
            let scheduled = byGroup[group.id] ?? []
            let finals = scheduled.compactMap { games[$0.id] }.filter(\.isFinished)
            // A game ended with no result (or abandoned at a tie) counts for nobody, yet it is
            // over: it still closes its place in the group.
            let counted = finals.filter { $0.winner != nil }
            var rows: [TeamID: StandingRow] = [:]
            for team in group.teams { rows[team] = StandingRow(team: team, name: teams[team]?.name ?? team.rawValue) }
            for game in counted {
                for side in Side.allCases {
                    let team = game.setup.team(side).id
                    guard var row = rows[team] else { continue }
                    row.played += 1
                    row.pointsFor += game.score[side]
                    row.pointsAgainst += game.score[side.opponent]
                    if game.winner == side { row.won += 1 } else { row.lost += 1 }
                    rows[team] = row
                }
            }
            let ordered = rank(Array(rows.values), finals: counted, using: tieBreakers(for: group))
            let ranked = ordered.enumerated().map { index, row in
                var row = row
                row.rank = index + 1
                return row
            }
            return GroupStandings(
                group: group.id, name: group.name, rows: ranked, complete: finals.count == scheduled.count && !scheduled.isEmpty,
                division: group.division)
        }
    }

    /// A team's points a game over the decided games among `games` it played, leaving out those
    /// it won by forfeit: their winning score is the rules', not points it scored (FIBA 3x3,
    /// Article 14). 0 when no game counts.
    static func averagePoints(of team: TeamID, in games: [Game]) -> Double {
        var (points, counted) = (0, 0)
        for game in games where game.isFinished {
            guard let winner = game.winner, let side = Side.allCases.first(where: { game.setup.team($0).id == team }) else {
                continue
            }
            if game.endReason == .forfeit && winner == side { continue }
            points += game.score[side]
            counted += 1
        }
        return counted == 0 ? 0 : Double(points) / Double(counted)
    }

    private func rank(_ rows: [StandingRow], finals: [Game], using breakers: [TieBreaker]) -> [StandingRow] {
        let byWins = Dictionary(grouping: rows, by: \.won).sorted { $0.key > $1.key }
        return byWins.flatMap { _, tied in breakTie(tied, using: breakers[...], finals: finals) }
    }

    /// Orders teams level on wins: the first tie-breaker splits them into levels, each level
    /// still tied goes to the next tie-breaker (head-to-head is recomputed among that level).
    private func breakTie(_ tied: [StandingRow], using breakers: ArraySlice<TieBreaker>, finals: [Game]) -> [StandingRow] {
        guard tied.count > 1, let breaker = breakers.first else { return tied.sorted { $0.team < $1.team } }
        let members = Set(tied.map(\.team))
        // More is better for every key.
        func key(_ row: StandingRow) -> Double {
            switch breaker {
            case .pointDifference: return Double(row.difference)
            case .pointsScored: return Double(row.pointsFor)
            case .averagePointsScored: return Self.averagePoints(of: row.team, in: finals)
            case .seed: return -Double(seeds[row.team] ?? .max)
            case .headToHead:
                return Double(
                    finals.filter { game in
                        members.contains(game.setup.home.id) && members.contains(game.setup.away.id)
                            && game.winner.map { game.setup.team($0).id } == row.team
                    }.count)
            }
        }
        let levels = Dictionary(grouping: tied, by: key).sorted { $0.key > $1.key }
        return levels.flatMap { _, level in breakTie(level, using: breakers.dropFirst(), finals: finals) }
    }
}
