public import CourtsideFormats
public import CourtsideModel

/// The event drawn and not yet planned: the tournament's teams, divisions, groups, games and
/// seeds, each game with its rules and no court or start yet.
public struct EventDraft: Hashable, Sendable {
    public var name: String
    public var schedule: Schedule
    /// Each division's draw, by division id, as its format made it (group ids as in `schedule`).
    public var draws: [String: Draw]
    /// The seed of the random draws, recorded so that anyone can replay them; nil when no
    /// division was drawn at random.
    public var randomSeed: UInt64?
}

/// Draws and plans an event described in a few lines: pure, so the same description, teams and
/// seed always give the same tournament.
public enum EventPlanner {
    /// Every division's teams entered and drawn by its format, in one schedule of divisions.
    ///
    /// `teams` are each division's registered teams, by division id (read from its CSV or its
    /// list by the caller, ``registered(_:)``). Seeds number each division's teams from 1 in
    /// seed order (by seed, then ranking points, then as listed). Group ids take the division's
    /// id as a prefix where there is more than one division (`open-A`), so that each stays
    /// unique. A player id used in an earlier division gets a suffix (`ann-2`).
    public static func draw(_ event: EventDescription, teams: [String: [RegisteredTeam]], seed: UInt64)
        throws(EventError) -> EventDraft
    {
        if let problem = TextRule.problem(event.tournament, as: .line) { throw invalid("tournament: \(problem)") }
        guard !event.divisions.isEmpty else { throw invalid("the event has no divisions: list at least one") }
        let baseRules = try rules(named: event.rules, key: "rules")
        var schedule = Schedule(teams: [:], courts: event.courts.map(\.name), games: [])
        if let tieBreakers = event.tieBreakers { schedule.tieBreakers = tieBreakers }
        var draws: [String: Draw] = [:]
        var divisionOfTeam: [TeamID: String] = [:]
        var players = Set<PlayerID>()
        var usedRandom = false
        let several = event.divisions.count > 1
        for (index, division) in event.divisions.enumerated() {
            let key = "divisions.\(index)"
            if let problem = GameSetup.problem(withID: division.id) { throw invalid("\(key).id: \(problem)") }
            if let problem = TextRule.problem(division.name, as: .line) { throw invalid("\(key).name: \(problem)") }
            if draws[division.id] != nil { throw invalid("\(key).id: division \(division.id) is described twice") }
            let rules =
                try division.rules.map { name throws(EventError) in try Self.rules(named: name, key: "\(key).rules") }
                ?? baseRules
            var entered: [RegisteredTeam] = []
            for var registered in teams[division.id] ?? [] {
                let id = registered.team.id
                if let other = divisionOfTeam[id] {
                    throw invalid("team \(id) is in divisions \(other) and \(division.id): a team enters one division")
                }
                if registered.team.players.isEmpty {
                    throw invalid("division \(division.id): team \(registered.team.name) has no players: list them")
                }
                divisionOfTeam[id] = division.id
                registered.team.players = registered.team.players.map { player in
                    var player = player
                    player.id = unique(player.id, in: players)
                    players.insert(player.id)
                    return player
                }
                schedule.teams[id] = registered.team
                entered.append(registered)
            }
            let entrants = Formats.seedOrder(
                entered.map { Entrant(id: $0.team.id, seed: $0.seed, rankingPoints: $0.rankingPoints, club: $0.club) })
            var draw: Draw
            do {
                draw = try Self.draw(entrants, format: division.format, prefix: division.id, seed: seed)
            } catch {
                let problem: FormatProblem =
                    switch error.code {
                    case .tooFewTeams: .tooFewTeams
                    case .tooManyTeams: .tooManyTeams
                    default: .options
                    }
                throw EventError(
                    error.code, "division \(division.id): \(error.message)",
                    problem: .format(division: division.name, teams: entrants.count, problem))
            }
            if division.format.deal == .random { usedRandom = true }
            if several { draw = prefixingGroups(draw, with: division.id) }
            for (team, number) in Formats.seeds(entrants) { schedule.seeds[team] = number }
            schedule.divisions.append(
                Division(id: division.id, name: division.name, teams: entrants.map(\.id), tieBreakers: division.tieBreakers))
            schedule.groups += draw.groups.map { group in
                var group = group
                group.division = division.id
                return group
            }
            schedule.games += draw.games.map { game in
                var game = game
                (game.division, game.rules) = (division.id, rules)
                return game
            }
            for round in draw.rounds where !schedule.rounds.contains(round) { schedule.rounds.append(round) }
            draws[division.id] = draw
        }
        // A single division is a tournament of one: no division is named anywhere.
        if !several { schedule = forgettingDivisions(schedule) }
        if let problem = schedule.problem { throw EventError(.invalidEvent, problem) }
        return EventDraft(name: event.tournament, schedule: schedule, draws: draws, randomSeed: usedRandom ? seed : nil)
    }

    /// A division's games by its format.
    static func draw(_ entrants: [Entrant], format: FormatDescription, prefix: String, seed: UInt64) throws(FormatError)
        -> Draw
    {
        let deal: PoolDeal = format.deal == .random ? .random(seed: seed) : .snake
        switch format.kind {
        case .roundRobin:
            return try Formats.roundRobin(entrants, prefix: prefix, legs: format.legs ?? 1, groupName: "Round robin")
        case .pools:
            return try Formats.pools(
                entrants, prefix: prefix, count: try count(format.pools, "pools"), deal: deal,
                separateClubs: format.separateClubs ?? false, legs: format.legs ?? 1)
        case .poolsKnockout:
            let pools = try Formats.pools(
                entrants, prefix: prefix, count: try count(format.pools, "pools"), deal: deal,
                separateClubs: format.separateClubs ?? false, legs: format.legs ?? 1)
            return try Formats.knockout(
                after: pools, top: format.qualifiers ?? 2, bestOfNextRank: format.bestOfNext ?? 0, prefix: prefix,
                thirdPlace: format.thirdPlace ?? true, fifthToEighth: format.fifthToEighth ?? false)
        case .singleElimination:
            return try Formats.singleElimination(
                entrants, prefix: prefix, thirdPlace: format.thirdPlace ?? true, fifthToEighth: format.fifthToEighth ?? false)
        case .doubleElimination:
            // The reset carries its condition (`playedIf`): created only if the losers' bracket's
            // team wins the first grand final.
            return try Formats.doubleElimination(entrants, prefix: prefix, reset: format.reset ?? false).draw
        case .swiss:
            return try Formats.Swiss.stage(
                entrants: entrants, rounds: try count(format.rounds, "rounds"), prefix: prefix,
                pairing: format.deal == .random ? .random(seed: seed) : .bySeed)
        }
    }

    private static func count(_ value: Int?, _ option: String) throws(FormatError) -> Int {
        guard let value else { throw FormatError(.invalidOption, "the format needs \(option): how many") }
        return value
    }

    /// The rule set of a preset's name; nil: the default preset.
    static func rules(named name: String?, key: String) throws(EventError) -> RuleSet {
        guard let name else { return RulePresets.pickup }
        guard let rules = RulePresets.builtIn[name] else {
            throw invalid("\(key): unknown preset \(name) (known: \(RulePresets.builtIn.keys.sorted().joined(separator: ", ")))")
        }
        return rules
    }

    /// `id` or, when taken, `id-2`, `id-3`, ...
    static func unique<Tag>(_ id: Identifier<Tag>, in taken: Set<Identifier<Tag>>) -> Identifier<Tag> {
        guard taken.contains(id) else { return id }
        var number = 2
        while taken.contains(Identifier("\(id.rawValue)-\(number)")) { number += 1 }
        return Identifier("\(id.rawValue)-\(number)")
    }

    /// The draw with every group id, and every slot and game naming one, prefixed `division-`.
    static func prefixingGroups(_ draw: Draw, with division: String) -> Draw {
        func renamed(_ group: String) -> String { "\(division)-\(group)" }
        func slot(_ slot: Slot) -> Slot {
            switch slot {
            case .groupRank(let group, let rank): .groupRank(group: renamed(group), rank: rank)
            case .bestOfRank(let rank, let place, let groups): .bestOfRank(rank: rank, place: place, groups: groups.map(renamed))
            case .swissPairing(let group, let round, let pairing, let side):
                .swissPairing(group: renamed(group), round: round, pairing: pairing, side: side)
            default: slot
            }
        }
        var draw = draw
        draw.groups = draw.groups.map { group in
            var group = group
            group.id = renamed(group.id)
            return group
        }
        draw.games = draw.games.map { game in
            var game = game
            (game.group, game.home, game.away) = (game.group.map(renamed), slot(game.home), slot(game.away))
            return game
        }
        return draw
    }

    /// The schedule with no division named: what a tournament of one division is. The
    /// division's own tie-breakers, if it has them, become the tournament's.
    static func forgettingDivisions(_ schedule: Schedule) -> Schedule {
        var schedule = schedule
        if let division = schedule.divisions.first { schedule.tieBreakers = division.tieBreakers ?? schedule.tieBreakers }
        schedule.divisions = []
        for index in schedule.groups.indices { schedule.groups[index].division = nil }
        for index in schedule.games.indices { schedule.games[index].division = nil }
        return schedule
    }

    static func invalid(_ message: String) -> EventError { EventError(.invalidEvent, message) }
}
