public import CourtsideModel

/// How entrants are dealt into pools.
public enum PoolDeal: Hashable, Sendable {
    /// In seed order, snaking: pools 1 to N, then N to 1, and so on (FIBA 3x3's seeding).
    case snake
    /// Shuffled by a seeded generator, then dealt in snake order; the draw records the seed.
    case random(seed: UInt64)
}

extension Formats {
    /// Entrants dealt into `count` pools, each a round robin.
    ///
    /// Pool sizes differ by at most one. With `separateClubs`, teams of one club go to different
    /// pools where a swap within a snake tier (the teams dealt in one pass over the pools) can
    /// do it, so no pool's size or seeding level changes. Pools are `A`, `B`, ... (`AA` after
    /// `Z`), named "Pool A"; each pool lists its teams in seed order and plays as
    /// ``roundRobin(_:prefix:legs:group:groupName:roundName:)`` does, its games
    /// `<prefix>-<pool>-<n>`; games are ordered by round, then pool.
    public static func pools(
        _ entrants: [Entrant], prefix: String, count: Int, deal: PoolDeal = .snake, separateClubs: Bool = false,
        legs: Int = 1, roundName: String = "Round"
    ) throws(FormatError) -> Draw {
        try check(entrants, minimum: 2, format: "pools")
        guard count >= 1 else { throw FormatError(.invalidOption, "the number of pools must be 1 or more, not \(count)") }
        guard entrants.count >= 2 * count else {
            throw FormatError(
                .tooFewTeams, "\(count) pools need at least \(2 * count) teams (2 a pool), not \(entrants.count)")
        }
        guard (1...2).contains(legs) else { throw FormatError(.invalidOption, "pools play 1 or 2 legs, not \(legs)") }
        var seed: UInt64?
        var order = entrants
        if case .random(let value) = deal {
            seed = value
            order = shuffled(entrants, seed: value)
        }
        var places = snakePlaces(entrants: order.count, pools: count)
        if separateClubs { separate(&places, clubs: order.map(\.club), pools: count) }
        // Each pool in seed order: the entrants' own order, whatever the deal.
        let rankOf = Dictionary(uniqueKeysWithValues: entrants.enumerated().map { ($0.element.id, $0.offset) })
        var members = Array(repeating: [Entrant](), count: count)
        for (index, pool) in places.enumerated() { members[pool].append(order[index]) }
        for pool in members.indices { members[pool].sort { rankOf[$0.id, default: 0] < rankOf[$1.id, default: 0] } }

        var groups: [Group] = []
        var byRound: [[ScheduledGame]] = []
        for (index, teams) in members.enumerated() {
            let id = poolID(index)
            groups.append(Group(id: id, name: "Pool \(id)", teams: teams.map(\.id)))
            for (round, pairs) in roundRobinRounds(count: teams.count, legs: legs).enumerated() {
                if byRound.count <= round { byRound.append([]) }
                for (home, away) in pairs {
                    byRound[round].append(
                        ScheduledGame(
                            id: "", home: .team(teams[home].id), away: .team(teams[away].id), group: id,
                            round: "\(roundName) \(round + 1)"))
                }
            }
        }
        // Numbered within each pool in playing order.
        var numbers: [String: Int] = [:]
        let games = byRound.joined().map { game in
            var game = game
            let group = game.group ?? ""
            numbers[group, default: 0] += 1
            game.id = GameID("\(prefix)-\(group)-\(numbers[group] ?? 0)")
            return game
        }
        try checkIDs(games)
        return Draw(groups: groups, games: games, rounds: byRound.indices.map { "\(roundName) \($0 + 1)" }, seed: seed)
    }

    /// A pool's id by its index: `A` ... `Z`, then `AA`, `AB`, ...
    public static func poolID(_ index: Int) -> String {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var id = ""
        var rest = index
        repeat {
            id = String(letters[rest % 26]) + id
            rest = rest / 26 - 1
        } while rest >= 0
        return id
    }

    /// The pool of each place in a snake deal: tier t (places t*N ..< (t+1)*N) runs over the
    /// pools forwards when t is even, backwards when odd.
    static func snakePlaces(entrants: Int, pools: Int) -> [Int] {
        (0..<entrants).map { index in
            let (tier, position) = index.quotientAndRemainder(dividingBy: pools)
            return tier.isMultiple(of: 2) ? position : pools - 1 - position
        }
    }

    /// Swaps the pools of two entrants of one tier while a swap lowers the number of pairs of
    /// one club in one pool; a swap keeps every pool's size and every team's seeding tier.
    static func separate(_ places: inout [Int], clubs: [String?], pools: Int) {
        // counts[pool][club]: teams of the club in the pool.
        var counts = Array(repeating: [String: Int](), count: pools)
        for (index, club) in clubs.enumerated() {
            if let club { counts[places[index]][club, default: 0] += 1 }
        }
        // What moving a team of `club` from `from` to `to` changes in the pairs (the other team
        // of the swap having left `to` already when `other` is set and the same club).
        func gain(_ club: String?, from: Int, to: Int) -> Int {
            guard let club else { return 0 }
            return (counts[from][club, default: 0] - 1) - counts[to][club, default: 0]
        }
        let tiers = stride(from: 0, to: places.count, by: pools).map { $0..<min($0 + pools, places.count) }
        var improved = true
        while improved {
            improved = false
            // The last tiers first: a swap there moves weaker teams, not the top seeds.
            for tier in tiers.reversed() {
                for first in tier {
                    for second in tier where second > first {
                        let (a, b) = (places[first], places[second])
                        let (clubA, clubB) = (clubs[first], clubs[second])
                        guard a != b, clubA != clubB, clubA != nil || clubB != nil else { continue }
                        // Pairs removed minus pairs added by the swap.
                        if gain(clubA, from: a, to: b) + gain(clubB, from: b, to: a) > 0 {
                            if let clubA {
                                counts[a][clubA, default: 0] -= 1
                                counts[b][clubA, default: 0] += 1
                            }
                            if let clubB {
                                counts[b][clubB, default: 0] -= 1
                                counts[a][clubB, default: 0] += 1
                            }
                            places.swapAt(first, second)
                            improved = true
                        }
                    }
                }
            }
        }
    }
}
