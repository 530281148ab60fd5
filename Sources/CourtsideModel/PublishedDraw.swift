/// A draw published as one change of the tournament: the divisions it holds (or the whole
/// tournament, when it has none) with their teams, seeds, groups, rounds and games, and how it
/// was drawn, so anyone can draw it again.
///
/// Published over a tournament, it replaces the divisions it names (a redraw) and adds the
/// others; a division, or a tournament of one, that has a game under way can no longer be
/// redrawn (`stage_started`): from then on its games are edited one at a time.
public struct PublishedDraw: Hashable, Codable, Sendable {
    /// The draw: its divisions (none for a tournament of one), teams, seeds, groups, rounds,
    /// games and the courts they are played on.
    public var schedule: Schedule
    /// The random seed the draw was made with (pools drawn at random, the order of seeds left
    /// open); nil when nothing in it was random.
    public var randomSeed: UInt64?
    /// The description the draw was made from, as the organiser wrote it, for the audit.
    public var event: String?

    public init(schedule: Schedule, randomSeed: UInt64? = nil, event: String? = nil) {
        (self.schedule, self.randomSeed, self.event) = (schedule, randomSeed, event)
    }

    enum CodingKeys: String, CodingKey {
        case schedule, event
        case randomSeed = "random_seed"
    }

    /// The seed goes as a decimal string: a JSON number past 2^53 loses digits in most readers.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schedule = try container.decode(Schedule.self, forKey: .schedule)
        event = try container.decodeIfPresent(String.self, forKey: .event)
        if let seed = try container.decodeIfPresent(String.self, forKey: .randomSeed) {
            guard let value = UInt64(seed) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .randomSeed, in: container, debugDescription: "random_seed is not a whole number from 0 to 2^64-1")
            }
            randomSeed = value
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(schedule, forKey: .schedule)
        try container.encodeIfPresent(event, forKey: .event)
        try container.encodeIfPresent(randomSeed.map { String($0) }, forKey: .randomSeed)
    }

    /// The divisions the draw holds, by name, or "the tournament" for a draw without divisions:
    /// what a log line or an answer says was published.
    public var subject: String {
        let ids = schedule.divisions.map(\.id)
        return ids.isEmpty ? "the tournament" : (ids.count == 1 ? "division " : "divisions ") + ids.joined(separator: ", ")
    }
}

extension CourtsideError.Code {
    /// A division (or a tournament of one) has a game under way: it can no longer be redrawn,
    /// only edited game by game.
    public static let stageStarted = CourtsideError.Code(rawValue: "stage_started")
}

extension Schedule {
    /// The schedule with `draw` published over it: the draw's divisions replace those of the same
    /// id (their teams, seeds, groups and games) and the others are added; a draw without
    /// divisions replaces the whole tournament. Courts and rounds are joined, in order.
    ///
    /// Refused, changing nothing, with `stage_started` (a game of a replaced division, or of the
    /// tournament, has started), `team_exists`, `player_exists`, `game_exists` (an id another
    /// division has), or `invalid_game` (a draw with divisions over a tournament of one that has
    /// teams, or the other way round; a group id taken; any ``problem`` of the result).
    func publishing(_ draw: PublishedDraw, hasStarted: (GameID) -> Bool) throws(CourtsideError) -> Schedule {
        let incoming = draw.schedule
        var next = self
        if incoming.divisions.isEmpty {
            guard divisions.isEmpty else {
                throw CourtsideError(
                    .invalidGame, "the tournament has divisions: a draw names the divisions it holds")
            }
            if let started = games.first(where: { hasStarted($0.id) }) {
                throw CourtsideError(
                    .stageStarted, "game \(started.id) has started: the draw can no longer be replaced, only its games edited")
            }
            next.teams = [:]
            next.groups = []
            next.games = []
            next.seeds = [:]
            next.rounds = []
            next.tieBreakers = incoming.tieBreakers
        } else {
            if divisions.isEmpty, !teams.isEmpty || !games.isEmpty {
                throw CourtsideError(
                    .invalidGame, "the tournament has teams and games outside divisions: publish a draw without divisions")
            }
            for division in incoming.divisions {
                guard let old = self.division(division.id) else { continue }
                let played = games.filter { $0.division == division.id }
                if let started = played.first(where: { hasStarted($0.id) }) {
                    throw CourtsideError(
                        .stageStarted,
                        "division \(old.name) has started (game \(started.id)): it can no longer be redrawn, only its games edited"
                    )
                }
                for team in old.teams {
                    next.teams[team] = nil
                    next.seeds[team] = nil
                }
                next.groups.removeAll { $0.division == division.id }
                next.games.removeAll { $0.division == division.id }
            }
        }
        try next.checkFree(incoming)
        next.teams.merge(incoming.teams) { _, new in new }
        next.seeds.merge(incoming.seeds) { _, new in new }
        next.groups += incoming.groups
        next.games += incoming.games
        for division in incoming.divisions {
            if let index = next.divisions.firstIndex(where: { $0.id == division.id }) {
                next.divisions[index] = division
            } else {
                next.divisions.append(division)
            }
        }
        for round in incoming.rounds where !next.rounds.contains(round) { next.rounds.append(round) }
        for court in incoming.courts where !next.courts.contains(court) { next.courts.append(court) }
        if let timing = incoming.timing {
            if let problem = timing.problem { throw CourtsideError(.invalidGame, "timing: \(problem)") }
            next.timing = timing
        }
        let players = next.players
        next.inactivePlayers = next.inactivePlayers.filter { players[$0] != nil }
        next.withdrawn = next.withdrawn.filter { next.teams[$0] != nil }
        if let problem = next.problem { throw CourtsideError(.invalidGame, problem) }
        for game in incoming.games {
            if let problem = game.rules.problem { throw CourtsideError(.invalidGame, "game \(game.id): \(problem)") }
            if case .team(let home) = game.home, case .team(let away) = game.away, home == away {
                throw CourtsideError(.invalidGame, "game \(game.id): team \(home) cannot play itself")
            }
        }
        return next
    }

    /// Refuses a draw whose ids this schedule (the divisions it keeps) has already.
    private func checkFree(_ incoming: Schedule) throws(CourtsideError) {
        let players = self.players
        var seen = Set<PlayerID>()
        for team in incoming.teams.values.sorted(by: { $0.id < $1.id }) {
            if teams[team.id] != nil {
                throw CourtsideError(.teamExists, "team \(team.id) is in the tournament already, outside this draw")
            }
            if team.players.isEmpty { throw CourtsideError(.invalidGame, "team \(team.id) has no players") }
            for player in team.players {
                if let other = players[player.id] {
                    throw CourtsideError(
                        .playerExists, "player \(player.id) plays for \(other) already; player ids are the tournament's")
                }
                if !seen.insert(player.id).inserted {
                    throw CourtsideError(.playerExists, "player \(player.id) appears twice in the draw")
                }
            }
        }
        let groupIDs = Set(groups.map(\.id))
        if let group = incoming.groups.first(where: { groupIDs.contains($0.id) }) {
            throw CourtsideError(.invalidGame, "group \(group.id) is in the tournament already, outside this draw")
        }
        let gameIDs = Set(games.map(\.id))
        if let game = incoming.games.first(where: { gameIDs.contains($0.id) }) {
            throw CourtsideError(.gameExists, "a game with id \(game.id) exists already, outside this draw")
        }
    }
}

extension Schedule {
    /// The schedule with each game whose id is in `taken` renamed to the first free of `ID-2`,
    /// `ID-3`, ..., and every slot that names it following: a draw published over games that
    /// exist outside the schedule (dropped by an earlier draw, say) names its own games apart.
    public func renamingGames(avoiding taken: Set<GameID>) -> Schedule {
        var used = taken.union(games.map(\.id))
        var renamed: [GameID: GameID] = [:]
        for game in games where taken.contains(game.id) {
            var number = 2
            while used.contains(GameID("\(game.id.rawValue)-\(number)")) { number += 1 }
            let id = GameID("\(game.id.rawValue)-\(number)")
            used.insert(id)
            renamed[game.id] = id
        }
        guard !renamed.isEmpty else { return self }
        func follow(_ slot: Slot) -> Slot {
            switch slot {
            case .winner(let game): .winner(of: renamed[game] ?? game)
            case .loser(let game): .loser(of: renamed[game] ?? game)
            default: slot
            }
        }
        var schedule = self
        for index in schedule.games.indices {
            let game = schedule.games[index]
            schedule.games[index].id = renamed[game.id] ?? game.id
            schedule.games[index].home = follow(game.home)
            schedule.games[index].away = follow(game.away)
            if case .won(let decider, let side) = game.playedIf {
                schedule.games[index].playedIf = .won(game: renamed[decider] ?? decider, by: side)
            }
        }
        return schedule
    }
}

extension PublishedDraw {
    /// Refuses the draw when a text it would store breaks the ``TextRule``, naming the field.
    func checkText() throws(CourtsideError) {
        let schedule = self.schedule
        // Ids first: the fields below are named by them.
        for team in schedule.teams.values.sorted(by: { $0.id < $1.id }) {
            if let problem = GameSetup.problem(withID: team.id.rawValue) {
                throw CourtsideError(.invalidGame, "a team id: \(problem)")
            }
            for player in team.players {
                if let problem = GameSetup.problem(withID: player.id.rawValue) {
                    throw CourtsideError(.invalidGame, "a player id of team \(team.id): \(problem)")
                }
            }
        }
        for game in schedule.games {
            if let problem = GameSetup.problem(withID: game.id.rawValue) {
                throw CourtsideError(.invalidGame, "a game id: \(problem)")
            }
        }
        for division in schedule.divisions {
            try TextRule.check(division.id, as: .line, field: "division id")
            try TextRule.check(division.name, as: .line, field: "division \(division.id) name")
        }
        for court in schedule.courts { try TextRule.check(court, as: .line, field: "court") }
        for round in schedule.rounds { try TextRule.check(round, as: .line, field: "round") }
        for team in schedule.teams.values.sorted(by: { $0.id < $1.id }) {
            try TextRule.check(team.name, as: .line, field: "team \(team.id) name")
            for player in team.players {
                try TextRule.check(player.name, as: .line, field: "player \(player.id) name")
            }
        }
        for group in schedule.groups {
            try TextRule.check(group.id, as: .line, field: "group id")
            try TextRule.check(group.name, as: .line, field: "group \(group.id) name")
        }
        for game in schedule.games {
            try TextRule.check(game.court, as: .line, field: "game \(game.id) court")
            try TextRule.check(game.start, as: .time, field: "game \(game.id) start")
            try TextRule.check(game.round, as: .line, field: "game \(game.id) round")
            try TextRule.check(game.rules.preset, as: .line, field: "game \(game.id) rules.preset")
        }
    }
}
