/// Who plays in a scheduled game: a known team, or a place the results decide.
public enum Slot: Hashable, Sendable, CustomStringConvertible {
    case team(TeamID)
    case winner(of: GameID)
    case loser(of: GameID)
    /// The team ranked `rank` (1 = first) in a group, once every game of the group is final.
    case groupRank(group: String, rank: Int)
    /// The `place`-th best (1 = best) of the teams ranked `rank` in each of `groups` ("the
    /// best third-placed teams"), once every game of those groups is final. FIBA 3x3's Article
    /// 14 orders them: win ratio, then average points scored leaving out the winning scores of
    /// forfeits, then seed (``Schedule/seeds``). A group with fewer than `rank` teams has none.
    case bestOfRank(rank: Int, place: Int, groups: [String])
    /// A `side` team of the `pairing`-th game (from 1) of round `round` (2 or later) of a Swiss
    /// group: the daemon pairs the round once every game of the rounds before it is final, and
    /// records the pairing (``TournamentChange/swissRoundPaired(_:)``), which puts the teams in
    /// these slots. Until then it names no team.
    case swissPairing(group: String, round: Int, pairing: Int, side: Side)

    public var description: String {
        switch self {
        case .team(let team): team.rawValue
        case .winner(let game): "winner of \(game)"
        case .loser(let game): "loser of \(game)"
        case .groupRank(let group, let rank): "\(rank)\(Self.ordinal(rank)) of group \(group)"
        case .bestOfRank(let rank, let place, let groups):
            "\(place == 1 ? "" : "\(place)\(Self.ordinal(place)) ")best of the \(rank)\(Self.ordinal(rank))-placed teams of groups \(groups.joined(separator: ", "))"
        case .swissPairing(let group, let round, let pairing, let side):
            "\(side.rawValue) team of round \(round) game \(pairing) of group \(group)"
        }
    }

    /// An ordinal's English suffix: "st" for 1, "nd" for 22, "th" for 11.
    public static func ordinal(_ number: Int) -> String {
        switch number % 100 {
        case 11, 12, 13: "th"
        default: [1: "st", 2: "nd", 3: "rd"][number % 10] ?? "th"
        }
    }
}

extension Slot: Codable {
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case team, group, rank, place, groups, swiss, round, pairing, side
        case winnerOf = "winner_of"
        case loserOf = "loser_of"
        case bestOfRank = "best_of_rank"
    }

    /// A bare string is a team id; otherwise an object with one of `team`, `winner_of`,
    /// `loser_of`, `group` and `rank`, `best_of_rank`, `place` and `groups`, or `swiss` (the
    /// group), `round`, `pairing` and `side`.
    public init(from decoder: any Decoder) throws {
        if let team = try? decoder.singleValueContainer().decode(String.self) {
            self = .team(TeamID(team))
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let team = try container.decodeIfPresent(TeamID.self, forKey: .team) {
            self = .team(team)
        } else if let game = try container.decodeIfPresent(GameID.self, forKey: .winnerOf) {
            self = .winner(of: game)
        } else if let game = try container.decodeIfPresent(GameID.self, forKey: .loserOf) {
            self = .loser(of: game)
        } else if let rank = try container.decodeIfPresent(Int.self, forKey: .bestOfRank) {
            self = .bestOfRank(
                rank: rank, place: try container.decode(Int.self, forKey: .place),
                groups: try container.decode([String].self, forKey: .groups))
        } else if let group = try container.decodeIfPresent(String.self, forKey: .swiss) {
            self = .swissPairing(
                group: group, round: try container.decode(Int.self, forKey: .round),
                pairing: try container.decode(Int.self, forKey: .pairing), side: try container.decode(Side.self, forKey: .side))
        } else if let group = try container.decodeIfPresent(String.self, forKey: .group) {
            self = .groupRank(group: group, rank: try container.decode(Int.self, forKey: .rank))
        } else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "a slot is a team id, or {winner_of: game}, {loser_of: game}, {group: id, rank: n} "
                        + "{best_of_rank: n, place: n, groups: [id]} or {swiss: group, round: n, pairing: n, side: home|away}"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .team(let team): try container.encode(team, forKey: .team)
        case .winner(let game): try container.encode(game, forKey: .winnerOf)
        case .loser(let game): try container.encode(game, forKey: .loserOf)
        case .groupRank(let group, let rank):
            try container.encode(group, forKey: .group)
            try container.encode(rank, forKey: .rank)
        case .bestOfRank(let rank, let place, let groups):
            try container.encode(rank, forKey: .bestOfRank)
            try container.encode(place, forKey: .place)
            try container.encode(groups, forKey: .groups)
        case .swissPairing(let group, let round, let pairing, let side):
            try container.encode(group, forKey: .swiss)
            try container.encode(round, forKey: .round)
            try container.encode(pairing, forKey: .pairing)
            try container.encode(side, forKey: .side)
        }
    }
}

/// A game of the schedule, whose teams may still depend on other results.
public struct ScheduledGame: Hashable, Codable, Sendable {
    public var id: GameID
    public var home: Slot
    public var away: Slot
    public var court: String?
    /// The group whose standings the game counts for, if any.
    public var group: String?
    /// The round's name, for example "Group stage" or "Final".
    public var round: String?
    /// The division the game belongs to (``Schedule/divisions``); nil when there are none.
    public var division: String?
    /// When the game is due, as the organiser wrote it (for example "10:30").
    public var start: String?
    public var rules: RuleSet
    /// Played only if this holds (a double elimination's grand final reset): created once it
    /// does, and out of the bracket once it cannot; nil for a game always played.
    public var playedIf: PlayCondition?

    public init(
        id: GameID, home: Slot, away: Slot, court: String? = nil, group: String? = nil, round: String? = nil,
        start: String? = nil, rules: RuleSet = .standard, division: String? = nil, playedIf: PlayCondition? = nil
    ) {
        self.playedIf = playedIf
        self.id = id
        self.division = division
        self.home = home
        self.away = away
        self.court = court
        self.group = group
        self.round = round
        self.start = start
        self.rules = rules
    }

    enum CodingKeys: String, CodingKey {
        case id, home, away, court, group, round, division, start, rules
        case playedIf = "played_if"
    }
}

extension ScheduledGame {
    /// The Swiss round of a game still to be paired (from its slots); nil for any other game,
    /// a Swiss game already paired among them.
    public var swissRound: Int? { home.swissRound ?? away.swissRound }
}

extension Slot {
    /// The Swiss round of a slot still to be paired; nil for any other slot.
    public var swissRound: Int? {
        if case .swissPairing(_, let round, _, _) = self { return round }
        return nil
    }
}

/// A group of teams that play each other; its standings rank them.
public struct Group: Hashable, Codable, Sendable {
    public var id: String
    public var name: String
    public var teams: [TeamID]
    /// The division the group belongs to (``Schedule/divisions``); nil when there are none.
    public var division: String?

    public init(id: String, name: String? = nil, teams: [TeamID], division: String? = nil) {
        self.id = id
        self.name = name ?? "Group \(id)"
        self.teams = teams
        self.division = division
    }

    package enum CodingKeys: String, CodingKey, CaseIterable { case id, name, teams, division }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id), name: try container.decodeIfPresent(String.self, forKey: .name),
            teams: try container.decode([TeamID].self, forKey: .teams),
            division: try container.decodeIfPresent(String.self, forKey: .division))
    }
}

/// How teams level on wins are ordered, tried in the order the tournament lists them.
public enum TieBreaker: String, Hashable, Codable, Sendable, CaseIterable {
    /// Wins in the games among the tied teams only.
    case headToHead = "head_to_head"
    /// Points for minus points against.
    case pointDifference = "point_difference"
    /// Points for.
    case pointsScored = "points_scored"
    /// Points scored a game, leaving out the games the team won by forfeit (their score is the
    /// rules', not the team's): FIBA 3x3's third criterion.
    case averagePointsScored = "average_points_scored"
    /// The better seed (``Schedule/seeds``; a team without one after those with one): FIBA
    /// 3x3's last word.
    case seed
}

/// The tournament's plan: teams, courts, groups, rounds and games.
public struct Schedule: Hashable, Codable, Sendable {
    public var teams: [TeamID: Team]
    public var courts: [String]
    public var groups: [Group]
    /// Round names in playing order.
    public var rounds: [String]
    public var games: [ScheduledGame]
    public var tieBreakers: [TieBreaker]
    /// Players the organiser marked inactive: on their rosters still (their moves stay), but no
    /// new move of theirs is taken.
    public var inactivePlayers: Set<PlayerID>
    /// The organiser's seeds, 1 for the best: the last word of FIBA 3x3's order for the best
    /// teams of a rank across groups (``Slot/bestOfRank(rank:place:groups:)``). A team without
    /// one comes after those with one.
    public var seeds: [TeamID: Int] = [:]
    /// The divisions sharing the courts, each with its teams; empty for a tournament of one.
    public var divisions: [Division] = []
    /// How the day is paced (a planned schedule has it); nil when not known.
    public var timing: DayTiming?
    /// Teams that withdrew: every game of theirs not over is forfeited, now and as the results
    /// bring them into more.
    public var withdrawn: Set<TeamID> = []
    /// Each Swiss group's byes so far, round by round (a team once for each bye it had): the
    /// next round's pairing counts them as wins, and gives no team a second before all have one.
    public var swissByes: [String: [TeamID]] = [:]

    public init(
        teams: [TeamID: Team], courts: [String] = [], groups: [Group] = [], rounds: [String] = [], games: [ScheduledGame],
        tieBreakers: [TieBreaker] = [.headToHead, .pointDifference, .pointsScored], inactivePlayers: Set<PlayerID> = []
    ) {
        self.inactivePlayers = inactivePlayers
        self.teams = teams
        self.courts = courts
        self.groups = groups
        self.rounds = rounds
        self.games = games
        self.tieBreakers = tieBreakers
    }

    enum CodingKeys: String, CodingKey {
        case teams, courts, groups, rounds, games
        case tieBreakers = "tie_breakers"
        case inactivePlayers = "inactive_players"
        case seeds, divisions, timing, withdrawn
        case swissByes = "swiss_byes"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            teams: try container.decode([TeamID: Team].self, forKey: .teams),
            courts: try container.decode([String].self, forKey: .courts),
            groups: try container.decode([Group].self, forKey: .groups),
            rounds: try container.decode([String].self, forKey: .rounds),
            games: try container.decode([ScheduledGame].self, forKey: .games),
            tieBreakers: try container.decode([TieBreaker].self, forKey: .tieBreakers),
            inactivePlayers: try container.decodeIfPresent(Set<PlayerID>.self, forKey: .inactivePlayers) ?? [])
        seeds = try container.decodeIfPresent([TeamID: Int].self, forKey: .seeds) ?? [:]
        divisions = try container.decodeIfPresent([Division].self, forKey: .divisions) ?? []
        timing = try container.decodeIfPresent(DayTiming.self, forKey: .timing)
        withdrawn = try container.decodeIfPresent(Set<TeamID>.self, forKey: .withdrawn) ?? []
        swissByes = try container.decodeIfPresent([String: [TeamID]].self, forKey: .swissByes) ?? [:]
    }

    /// The fields, `seeds`, `divisions`, `timing`, `withdrawn` and `swiss_byes` only when there
    /// are some (the form before they existed); `withdrawn` in id order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(teams, forKey: .teams)
        try container.encode(courts, forKey: .courts)
        try container.encode(groups, forKey: .groups)
        try container.encode(rounds, forKey: .rounds)
        try container.encode(games, forKey: .games)
        try container.encode(tieBreakers, forKey: .tieBreakers)
        try container.encode(inactivePlayers, forKey: .inactivePlayers)
        if !seeds.isEmpty { try container.encode(seeds, forKey: .seeds) }
        if !divisions.isEmpty { try container.encode(divisions, forKey: .divisions) }
        try container.encodeIfPresent(timing, forKey: .timing)
        if !withdrawn.isEmpty { try container.encode(withdrawn.sorted(), forKey: .withdrawn) }
        if !swissByes.isEmpty { try container.encode(swissByes, forKey: .swissByes) }
    }

    /// Why the schedule cannot be played, or nil: unknown teams, games or groups in slots,
    /// duplicate ids, games that wait on each other (a cycle of any length), or divisions that
    /// do not hold (``divisionProblem``).
    public var problem: String? {
        var ids = Set<GameID>()
        for game in games {
            if let problem = GameSetup.problem(withID: game.id.rawValue) { return "game \(game.id): \(problem)" }
            if !ids.insert(game.id).inserted { return "game \(game.id) is scheduled twice" }
        }
        let groupIDs = Set(groups.map(\.id))
        for group in groups {
            for team in group.teams where teams[team] == nil { return "group \(group.id): unknown team \(team)" }
        }
        for game in games {
            if let group = game.group, !groupIDs.contains(group) { return "game \(game.id): unknown group \(group)" }
            if let condition = game.playedIf, !ids.contains(condition.game) || condition.game == game.id {
                return "game \(game.id) is played only if \(condition), which names no other scheduled game"
            }
            for slot in [game.home, game.away] {
                switch slot {
                case .team(let team) where teams[team] == nil: return "game \(game.id): unknown team \(team)"
                case .winner(let other), .loser(let other):
                    if !ids.contains(other) { return "game \(game.id): \(slot) names no scheduled game" }
                case .groupRank(let group, let rank):
                    guard let members = groups.first(where: { $0.id == group }) else {
                        return "game \(game.id): unknown group \(group)"
                    }
                    if rank < 1 || rank > members.teams.count { return "game \(game.id): group \(group) has no rank \(rank)" }
                case .bestOfRank(let rank, let place, let named):
                    if let problem = Self.problem(bestOf: rank, place: place, groups: named, known: groups) {
                        return "game \(game.id): \(slot): \(problem)"
                    }
                case .swissPairing(let group, let round, let pairing, _):
                    guard let members = groups.first(where: { $0.id == group }) else {
                        return "game \(game.id): unknown group \(group)"
                    }
                    if game.group != group { return "game \(game.id): \(slot) is not in group \(group)" }
                    if round < 2 { return "game \(game.id): \(slot): a Swiss round paired live is the second or later" }
                    if pairing < 1 || pairing > members.teams.count / 2 {
                        return "game \(game.id): \(slot): group \(group) has \(members.teams.count / 2) games a round"
                    }
                default: break
                }
            }
        }
        if let cycle { return "games \(cycle.map(\.rawValue).joined(separator: " → ")) wait on each other's results" }
        return divisionProblem
    }

    /// The games a game's teams come from: those its winner and loser slots name, every game
    /// of a group whose ranking it takes, and the earlier rounds of a Swiss round not yet paired
    /// (`byGroup`: the games of each group).
    private func dependencies(of game: ScheduledGame, byGroup: [String: [ScheduledGame]]) -> [GameID] {
        (game.playedIf.map { [$0.game] } ?? [])
            + [game.home, game.away].flatMap { slot -> [GameID] in
                switch slot {
                case .winner(let other), .loser(let other): [other]
                case .groupRank(let group, _): byGroup[group]?.map(\.id) ?? []
                case .bestOfRank(_, _, let groups): groups.flatMap { byGroup[$0]?.map(\.id) ?? [] }
                case .swissPairing(let group, let round, _, _):
                    (byGroup[group] ?? []).filter { ($0.swissRound ?? 1) < round }.map(\.id)
                case .team: []
                }
            }
    }

    /// A chain of games that ends where it starts, if the slots make one.
    private var cycle: [GameID]? {
        enum Mark { case visiting, done }
        var marks: [GameID: Mark] = [:]
        var path: [GameID] = []
        // Looked up once: a search through the games for each one was quadratic (seconds for a
        // round robin of 128 teams).
        let byID = Dictionary(games.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var byGroup: [String: [ScheduledGame]] = [:]
        for game in games { if let group = game.group { byGroup[group, default: []].append(game) } }
        func visit(_ id: GameID) -> [GameID]? {
            switch marks[id] {
            case .done: return nil
            case .visiting: return Array(path[(path.firstIndex(of: id) ?? 0)...]) + [id]
            case nil: break
            }
            marks[id] = .visiting
            path.append(id)
            defer {
                path.removeLast()
                marks[id] = .done
            }
            for next in byID[id].map({ dependencies(of: $0, byGroup: byGroup) }) ?? [] {
                if let found = visit(next) { return found }
            }
            return nil
        }
        for game in games {
            if let found = visit(game.id) { return found }
        }
        return nil
    }

    public func game(_ id: GameID) -> ScheduledGame? { games.first { $0.id == id } }

    /// Why a best-of-rank slot can never be filled, or nil: no groups, a group named twice or
    /// unknown, a rank below 1, or a place beyond the groups that have a team of that rank.
    private static func problem(bestOf rank: Int, place: Int, groups named: [String], known: [Group]) -> String? {
        if named.isEmpty { return "it names no group" }
        if Set(named).count != named.count { return "it names a group twice" }
        if rank < 1 { return "rank must be 1 or more" }
        var ranked = 0
        for id in named {
            guard let group = known.first(where: { $0.id == id }) else { return "unknown group \(id)" }
            if group.teams.count >= rank { ranked += 1 }
        }
        if place < 1 || place > ranked {
            return "place must be between 1 and \(ranked), the groups with a team ranked \(rank)"
        }
        return nil
    }
}
