import CourtsideModel

/// Tournaments of the usual shape for the planner's tests and benchmark, built here so that
/// neither depends on the formats: pools of 4 playing a round robin, the top of each pool (and
/// optionally the best of the next rank) into a single-elimination knockout with a game for
/// third place.
package enum SampleTournament {
    /// `teams` teams (2 or more) in pools of 4 (some of 5 when the count is not a multiple of 4;
    /// one pool below 8 teams), each a round robin in rounds; then a knockout of the top
    /// `qualifiers` of each pool and the `bestOfNext` best of the next rank, the top seeds
    /// getting byes, with a game for third place. Ids start with `prefix`.
    ///
    /// With `namedByes`, a team with a bye is named in its knockout game, as if known ahead:
    /// that game then shares a team with the pool games it does not wait for.
    package static func pools(
        teams: Int, prefix: String = "", division: String? = nil, qualifiers: Int = 2, bestOfNext: Int = 0,
        namedByes: Bool = false
    ) -> [GameToPlace] {
        let poolCount = max(1, teams / 4)
        var pools = Array(repeating: [TeamID](), count: poolCount)
        for team in 0..<teams { pools[team % poolCount].append(TeamID("\(prefix)t\(team + 1)")) }
        let groups = pools.indices.map { "\(prefix)p\($0 + 1)" }

        var games: [GameToPlace] = []
        // A round robin in each pool, by rounds across the pools (the circle method).
        let rounds = pools.map(roundRobin)
        for round in 0..<(rounds.map(\.count).max() ?? 0) {
            for (pool, pairs) in rounds.enumerated() where round < pairs.count {
                for (number, pair) in pairs[round].enumerated() {
                    games.append(
                        GameToPlace(
                            id: GameID("\(prefix)\(groups[pool])-r\(round + 1)-\(number + 1)"), home: .team(pair.0),
                            away: .team(pair.1), group: groups[pool], division: division))
                }
            }
        }

        // Seeds: every pool's first, then its second, ..., then the best of the next rank.
        var seeds: [Slot] = []
        var named: [Slot: TeamID] = [:]
        for rank in 1...max(1, qualifiers) {
            for (pool, group) in groups.enumerated() where rank <= pools[pool].count {
                seeds.append(.groupRank(group: group, rank: rank))
                named[.groupRank(group: group, rank: rank)] = pools[pool][rank - 1]
            }
        }
        for place in 1...max(1, bestOfNext) where bestOfNext > 0 {
            seeds.append(.bestOfRank(rank: qualifiers + 1, place: place, groups: groups))
        }
        guard seeds.count >= 2 else { return games }
        var size = 2
        while size < seeds.count { size *= 2 }
        var order = [1]
        while order.count < size { order = order.flatMap { [$0, order.count * 2 + 1 - $0] } }

        // Round by round: a seed beyond the qualifiers is a bye, its opponent goes straight on.
        var slots: [Slot?] = order.map { $0 <= seeds.count ? seeds[$0 - 1] : nil }
        var round = 1
        var semiFinals: [GameID] = []
        while slots.count > 1 {
            var next: [Slot?] = []
            for number in 0..<(slots.count / 2) {
                var home = slots[2 * number]
                var away = slots[2 * number + 1]
                if home == nil || away == nil {
                    next.append(home ?? away)
                    continue
                }
                if namedByes, round == 2 {
                    home = home.map { named[$0].map(Slot.team) ?? $0 }
                    away = away.map { named[$0].map(Slot.team) ?? $0 }
                }
                guard let home, let away else { continue }
                let id = GameID("\(prefix)ko-r\(round)-\(number + 1)")
                games.append(GameToPlace(id: id, home: home, away: away, division: division))
                if slots.count == 4 { semiFinals.append(id) }
                next.append(.winner(of: id))
            }
            slots = next
            round += 1
        }
        if semiFinals.count == 2 {
            games.append(
                GameToPlace(
                    id: GameID("\(prefix)ko-third"), home: .loser(of: semiFinals[0]), away: .loser(of: semiFinals[1]),
                    division: division))
        }
        return games
    }

    /// The circle method: rounds of pairs in which every two teams meet once.
    private static func roundRobin(_ teams: [TeamID]) -> [[(TeamID, TeamID)]] {
        var circle: [TeamID?] = teams
        if circle.count % 2 == 1 { circle.append(nil) }
        guard circle.count >= 2 else { return [] }
        var rounds: [[(TeamID, TeamID)]] = []
        for _ in 0..<(circle.count - 1) {
            var pairs: [(TeamID, TeamID)] = []
            for index in 0..<(circle.count / 2) {
                if let home = circle[index], let away = circle[circle.count - 1 - index] { pairs.append((home, away)) }
            }
            rounds.append(pairs)
            circle.insert(circle.removeLast(), at: 1)
        }
        return rounds
    }
}
