import CourtsideModel

@testable import CourtsidePlanning

/// An oracle for plans, written apart from the planner: every constraint checked on the
/// placements alone, teams the results fill included, by playing out random results.
struct PlanCheck {
    let games: [GameToPlace]
    let venue: Venue
    let plan: Plan

    /// Every broken constraint, in words; empty when the plan holds them all.
    func violations(outcomes: Int = 20, seed: UInt64 = 1) -> [String] {
        var found: [String] = []
        let length = venue.gameMinutes
        var placed: [GameID: Plan.Placement] = [:]
        for placement in plan.placements {
            if placed.updateValue(placement, forKey: placement.game) != nil { found.append("\(placement.game) placed twice") }
        }
        for game in games where placed[game.id] == nil { found.append("\(game.id) not placed") }
        if plan.placements.count != games.count { found.append("\(plan.placements.count) placements for \(games.count) games") }

        // Hours: the day's and the court's.
        for placement in plan.placements {
            let start = placement.start.minutes
            if placement.end.minutes != start + length { found.append("\(placement.game) does not last a game") }
            if start < venue.start.minutes || start + length > venue.end.minutes {
                found.append("\(placement.game) at \(placement.start) is outside the day")
            }
            guard let court = venue.courts.first(where: { $0.name == placement.court }) else {
                found.append("\(placement.game) on unknown court \(placement.court)")
                continue
            }
            let hours = court.hours.isEmpty ? [Hours()] : court.hours
            let inHours = hours.contains { hours in
                start >= (hours.from ?? venue.start).minutes && start + length <= (hours.until ?? venue.end).minutes
            }
            if !inHours { found.append("\(placement.game) at \(placement.start) outside the hours of \(court.name)") }
        }
        // One game a slot on each court.
        for court in venue.courts {
            let starts = plan.placements.filter { $0.court == court.name }.map(\.start.minutes).sorted()
            for (first, second) in zip(starts, starts.dropFirst()) where second - first < venue.slotMinutes {
                found.append("\(court.name): games at \(first) and \(second) less than a slot apart")
            }
        }
        // A game starts a rest after every game that feeds it.
        let byGroup = Dictionary(grouping: games.filter { $0.group != nil }, by: { $0.group ?? "" })
        for game in games {
            guard let start = placed[game.id]?.start.minutes else { continue }
            for slot in [game.home, game.away] {
                var feeders: [GameID] = []
                switch slot {
                case .team: break
                case .winner(let other), .loser(let other): feeders = [other]
                case .groupRank(let group, _): feeders = (byGroup[group] ?? []).map(\.id)
                case .bestOfRank(_, _, let groups): feeders = groups.flatMap { (byGroup[$0] ?? []).map(\.id) }
                case .swissPairing(let group, let round, _, _):
                    feeders = (byGroup[group] ?? []).filter { ($0.home.swissRound ?? 1) < round }.map(\.id)
                }
                for feeder in feeders {
                    guard let end = placed[feeder]?.end.minutes else { continue }
                    if start < end + venue.restMinutes {
                        found.append("\(game.id) starts \(end + venue.restMinutes - start) min too soon after \(feeder)")
                    }
                }
            }
        }
        // No team twice at once or without its rest, whatever the results.
        var random = SeededRandom(seed: seed)
        for _ in 0..<outcomes {
            var outcome = Outcome(games: games, random: random)
            var teamGames: [TeamID: [GameID]] = [:]
            for game in games {
                for slot in [game.home, game.away] {
                    if let team = outcome.team(slot) { teamGames[team, default: []].append(game.id) }
                }
            }
            random = outcome.random
            for (team, ids) in teamGames {
                // A team in both slots of one game is the input's doing, not the plan's.
                let times = Set(ids).compactMap { placed[$0] }.sorted { $0.start < $1.start }
                for (first, second) in zip(times, times.dropFirst())
                where second.start.minutes < first.end.minutes + venue.restMinutes {
                    found.append("\(team) plays \(first.game) at \(first.start) and \(second.game) at \(second.start)")
                }
            }
        }
        return Array(Set(found)).sorted()
    }
}

/// One way the results may go: every game won by one of its teams at random, every group
/// ranked at random, the best of a rank across groups ordered at random.
struct Outcome {
    let games: [GameID: GameToPlace]
    let byGroup: [String: [GameToPlace]]
    var random: SeededRandom
    private var results: [GameID: (winner: TeamID?, loser: TeamID?)] = [:]
    private var rankings: [String: [TeamID]] = [:]
    private var bests: [String: [TeamID]] = [:]
    private var swissRounds: [String: [TeamID]] = [:]

    init(games: [GameToPlace], random: SeededRandom) {
        self.games = Dictionary(games.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        byGroup = Dictionary(grouping: games.filter { $0.group != nil }, by: { $0.group ?? "" })
        self.random = random
    }

    mutating func team(_ slot: Slot) -> TeamID? {
        switch slot {
        case .team(let team): return team
        case .winner(let game): return result(game).winner
        case .loser(let game): return result(game).loser
        case .groupRank(let group, let rank): return ranking(group).dropFirst(rank - 1).first
        case .bestOfRank(let rank, let place, let groups):
            let key = "\(rank) " + groups.sorted().joined(separator: ",")
            if bests[key] == nil {
                bests[key] = groups.compactMap { ranking($0).dropFirst(rank - 1).first }.shuffled(using: &random)
            }
            return bests[key]?.dropFirst(place - 1).first
        case .swissPairing(let group, let round, let pairing, let side):
            // Any pairing of the group's teams (those its first round names), one per round.
            let key = "\(group) \(round)"
            if swissRounds[key] == nil {
                let teams = (byGroup[group] ?? []).filter { $0.home.swissRound == nil }.flatMap { [$0.home, $0.away] }
                    .compactMap { slot -> TeamID? in if case .team(let team) = slot { team } else { nil } }
                swissRounds[key] = Array(Set(teams)).sorted().shuffled(using: &random)
            }
            return swissRounds[key]?.dropFirst(2 * (pairing - 1) + (side == .home ? 0 : 1)).first
        }
    }

    private mutating func result(_ id: GameID) -> (winner: TeamID?, loser: TeamID?) {
        if let known = results[id] { return known }
        guard let game = games[id] else { return (nil, nil) }
        let home = team(game.home)
        let away = team(game.away)
        let result = Bool.random(using: &random) ? (home, away) : (away, home)
        results[id] = result
        return result
    }

    private mutating func ranking(_ group: String) -> [TeamID] {
        if let known = rankings[group] { return known }
        var teams: [TeamID] = []
        for game in byGroup[group] ?? [] {
            for slot in [game.home, game.away] {
                if let team = team(slot), !teams.contains(team) { teams.append(team) }
            }
        }
        teams.shuffle(using: &random)
        rankings[group] = teams
        return teams
    }
}
